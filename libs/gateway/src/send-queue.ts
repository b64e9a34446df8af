import WebSocket from 'ws';
import { GatewayOptions } from './room-directory';
import { turnCork } from './turn-cork';
import { WireObserver } from './wire-observer';

/** Why a socket was evicted: the `reason` label of game_ws_evictions_total. */
export type EvictionReason = 'send_queue_bytes' | 'send_queue_frames';

/**
 * What one socket has sent that its client has not yet read, bounded. `ws.bufferedAmount` sees
 * only what waits in this process; the kernel's buffers can hold megabytes more that the server
 * cannot see. So the queue counts every frame from the moment it is sent until the client has
 * read past it: a WebSocket ping goes out behind the frames, and its pong (which every client
 * sends by itself, once it has read everything before the ping) acknowledges them all.
 */
export class SendQueue {
  private sentBytes = 0;
  private sentFrames = 0;
  private ackedBytes = 0;
  private ackedFrames = 0;
  private probes = 0;
  /** The ping in flight and how much had been sent when it went out. */
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
    // A frame larger than the whole bound still goes to a client that has read everything.
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

  /** The socket closed: nothing it held counts any more. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.observer.queued(-this.queuedBytes, -this.queuedFrames);
    this.ackedBytes = this.sentBytes;
    this.ackedFrames = this.sentFrames;
  }

  // A ping once a quarter of either bound is unacknowledged, one at a time: a client that keeps
  // up acknowledges long before the bound, one that does not is caught by it.
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
