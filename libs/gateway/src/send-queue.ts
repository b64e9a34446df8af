import WebSocket from 'ws';
import { GatewayOptions } from './room-directory';
import { turnCork } from './turn-cork';
import { WireObserver } from './wire-observer';

/** Why a socket was evicted. This is the `reason` label of game_ws_evictions_total. */
export type EvictionReason = 'send_queue_bytes' | 'send_queue_frames';

/**
 * Bounds what one socket has sent that its client has not yet read. `ws.bufferedAmount` sees only
 * what waits in this process, but the kernel's buffers can hold megabytes more that the server
 * cannot see. So the queue counts every frame from the moment it is sent until the client has read
 * past it. To learn that, it sends a WebSocket ping behind the frames. Every client answers a ping
 * with a pong by itself, once it has read everything before the ping, so the pong acknowledges
 * all those frames.
 */
export class SendQueue {
  private sentBytes = 0;
  private sentFrames = 0;
  private ackedBytes = 0;
  private ackedFrames = 0;
  private probes = 0;
  /** The ping in flight, and how much had been sent when it went out. */
  private probe: { readonly tag: string; readonly bytes: number; readonly frames: number } | undefined;
  private released = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly options: Pick<GatewayOptions, 'sendQueueBytes' | 'sendQueueFrames'>,
    private readonly observer: WireObserver,
  ) {
    ws.on('pong', (data) => this.onPong(data.toString()));
  }

  get queuedBytes(): number {
    return this.sentBytes - this.ackedBytes;
  }

  get queuedFrames(): number {
    return this.sentFrames - this.ackedFrames;
  }

  /** Why one more frame of `bytes` would go over the bound, or null when it fits. */
  refuses(bytes: number): EvictionReason | null {
    // A frame larger than the whole bound still goes out to a client that has read everything.
    if (this.queuedFrames > 0 && this.queuedBytes + bytes > this.options.sendQueueBytes) return 'send_queue_bytes';
    if (this.queuedFrames + 1 > this.options.sendQueueFrames) return 'send_queue_frames';
    return null;
  }

  send(frame: string, bytes: number): void {
    turnCork.hold(this.ws);
    this.ws.send(frame);
    this.sentBytes += bytes;
    this.sentFrames++;
    this.observer.queued(bytes, 1);
    this.probeIfDue();
  }

  /** Called when the socket closed. Nothing it held counts any more. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.observer.queued(-this.queuedBytes, -this.queuedFrames);
    this.ackedBytes = this.sentBytes;
    this.ackedFrames = this.sentFrames;
  }

  // Send a ping once a quarter of either bound is unacknowledged, one ping at a time. A client
  // that keeps up acknowledges long before the bound, and one that does not is caught by it.
  private probeIfDue(): void {
    if (this.probe || this.released || this.ws.readyState !== WebSocket.OPEN) return;
    const sinceAck = this.queuedBytes;
    if (sinceAck < this.options.sendQueueBytes / 4 && this.queuedFrames < this.options.sendQueueFrames / 4) return;
    this.probe = { tag: String(++this.probes), bytes: this.sentBytes, frames: this.sentFrames };
    this.ws.ping(this.probe.tag);
  }

  private onPong(tag: string): void {
    const probe = this.probe;
    if (!probe || probe.tag !== tag || this.released) return;
    this.probe = undefined;
    this.observer.queued(-(probe.bytes - this.ackedBytes), -(probe.frames - this.ackedFrames));
    this.ackedBytes = probe.bytes;
    this.ackedFrames = probe.frames;
    this.probeIfDue();
  }
}
