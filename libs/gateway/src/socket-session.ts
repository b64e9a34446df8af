import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { CloseCode, ReplyFrame, Role, WireProfile } from '@app/protocol';
import { OutboundEvent, Viewer } from '@app/room-engine';
import { GatewayOptions } from './room-directory';
import { SendQueue } from './send-queue';
import { SocketEncoder } from './socket-encoder';
import { LivenessVerdict, SocketLiveness } from './socket-liveness';
import { TokenBucket } from './token-bucket';
import { WireObserver } from './wire-observer';

/**
 * One open socket. It encodes frames for its profile, numbers the events it sends from 1 without
 * gaps, evicts itself (4009) when the client cannot keep up, and keeps track of whether its client
 * is still there (it is pinged when quiet; see SocketLiveness).
 */
export class SocketSession implements Viewer {
  // The id is 96 random bits as one flat string. randomUUID builds its text by concatenation, and
  // the rope of 14 pieces it leaves (about 450 bytes) lived as long as the socket.
  readonly socketId = randomBytes(12).toString('base64url');
  private seq = 0;
  private readonly commands: TokenBucket;
  private badFrames = 0;
  private closing = false;
  private readonly encoder: SocketEncoder;
  private readonly queue: SendQueue;
  private readonly liveness: SocketLiveness;

  constructor(
    private readonly ws: WebSocket,
    readonly role: Role,
    readonly seat: string | undefined,
    readonly wire: WireProfile,
    private readonly options: GatewayOptions,
    private readonly observer: WireObserver,
    now: number,
  ) {
    this.commands = new TokenBucket(options.commandsPerSecond, options.commandBurst, now);
    this.encoder = new SocketEncoder(wire, options.codes);
    this.queue = new SendQueue(ws, options, observer);
    this.liveness = new SocketLiveness(performance.now());
    // Any pong answers the liveness ping, including the send queue's. A ping from the client also proves it is there.
    const heard = () => this.liveness.heard(performance.now());
    ws.on('pong', heard);
    ws.on('ping', heard);
  }

  /** Records that a frame arrived from the client at `hr` (monotonic), which proves the client is there. */
  heard(hr: number): void {
    this.liveness.heard(hr);
  }

  /**
   * Called when the gateway's sweep visits. `now` is monotonic, and `stalledMs` is the process's own
   * stall since the last sweep. A socket that has been quiet for a while is pinged. 'silent' means
   * it answered nothing within the window after its ping, and the caller then closes it.
   */
  sweep(now: number, stalledMs: number): LivenessVerdict {
    if (this.isClosing) return undefined;
    const verdict = this.liveness.check(now, this.options, stalledMs);
    if (verdict === 'ping') {
      this.liveness.pinged(now);
      this.ws.ping();
    }
    return verdict;
  }

  sendEvent(event: OutboundEvent): void {
    if (this.isClosing) return;
    const frame = this.encoder.event(event, this.seq + 1);
    if (frame === null) return;
    this.seq++;
    this.write(event.type, frame);
  }

  /** Sends a reply. A 400 reply counts as a bad frame, and past the limit the socket closes with 4008. */
  sendReply(reply: ReplyFrame): void {
    if (!this.isClosing) this.write('reply', this.encoder.reply(reply));
    if (reply.status === 400) this.badFrame();
  }

  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
  }

  /**
   * Closes with `code`, and cuts the connection `graceMs` later if its client has not answered the
   * close by then. That way a client that ignores closes, or is gone, cannot keep the socket open.
   */
  closeWithin(code: number, reason: string, graceMs: number): void {
    if (this.isClosing) return;
    this.close(code, reason);
    const cut = setTimeout(() => this.ws.terminate(), graceMs);
    cut.unref();
    this.ws.once('close', () => clearTimeout(cut));
  }

  /** Called when the socket is gone. What it still held queued no longer counts. */
  closed(): void {
    this.queue.release();
  }

  get isClosing(): boolean {
    return this.closing || this.ws.readyState !== WebSocket.OPEN;
  }

  /** Takes a token from the socket's bucket. Returns false when this socket sends faster than it may. */
  takeCommandToken(now: number): boolean {
    return this.commands.take(now);
  }

  private badFrame(): void {
    if (++this.badFrames > this.options.badFrameLimit) this.close(CloseCode.policy, 'too many bad frames');
  }

  private write(kind: string, frame: string): void {
    if (this.isClosing) return;
    const bytes = Buffer.byteLength(frame);
    const full = this.queue.refuses(bytes);
    if (full) {
      this.observer.evicted(full);
      this.close(CloseCode.evicted, 'could not keep up');
      return;
    }
    this.queue.send(frame, bytes);
    this.observer.frameSent(kind, this.wire, bytes);
  }
}
