import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { CloseCode, ReplyFrame, Role, WireProfile } from '@app/protocol';
import { Viewer } from '@app/room-engine';
import { GatewayOptions } from './room-directory';
import { WireObserver } from './wire-observer';

/**
 * One open socket: numbers its events from 1 without gaps, writes frames, and evicts itself
 * when the client cannot keep up.
 */
export class SocketSession implements Viewer {
  readonly socketId = randomUUID();
  private seq = 0;
  private tokens: number;
  private lastRefill: number;
  private badFrames = 0;
  private closing = false;

  constructor(
    private readonly ws: WebSocket,
    readonly role: Role,
    readonly seat: string | undefined,
    readonly wire: WireProfile,
    private readonly options: GatewayOptions,
    private readonly observer: WireObserver,
    now: number,
  ) {
    this.tokens = options.commandBurst;
    this.lastRefill = now;
  }

  sendEvent(type: string, dataJson: string): void {
    // The data is serialized once per broadcast; only the envelope is per socket.
    this.write(type, `{"type":${JSON.stringify(type)},"seq":${++this.seq},"data":${dataJson}}`);
  }

  /** A 400 reply counts as a bad frame: past the limit the socket closes with 4008. */
  sendReply(reply: ReplyFrame): void {
    this.write('reply', JSON.stringify(reply));
    if (reply.status === 400) this.badFrame();
  }

  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
  }

  get isClosing(): boolean {
    return this.closing || this.ws.readyState !== WebSocket.OPEN;
  }

  /** Token bucket: false when this socket sends faster than it may. */
  takeCommandToken(now: number): boolean {
    const elapsed = (now - this.lastRefill) / 1000;
    this.lastRefill = now;
    this.tokens = Math.min(this.options.commandBurst, this.tokens + elapsed * this.options.commandsPerSecond);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private badFrame(): void {
    if (++this.badFrames > this.options.badFrameLimit) this.close(CloseCode.policy, 'too many bad frames');
  }

  private write(kind: string, frame: string): void {
    if (this.isClosing) return;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes) {
      this.observer.evicted('send_buffer_full');
      this.close(CloseCode.evicted, 'could not keep up');
      return;
    }
    this.ws.send(frame);
    this.observer.frameSent(kind, this.wire, Buffer.byteLength(frame));
  }
}
