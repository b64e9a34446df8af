import type { CommandFrame, EventFrame, ReplyFrame } from '../wire.types.js';
import { SOCKET_OPEN, type FrameSocket } from './frame-socket.js';

// An interface from event types to payloads ({"round.open": {...}}). It is typed as object, so
// that an interface without an index signature fits.
export type EventMap = object;

export type EventListener<T> = (data: T, frame: EventFrame<T>) => void;

interface PendingCommand {
  readonly frame: CommandFrame;
  readonly resolve: (reply: ReplyFrame) => void;
  readonly reject: (error: Error) => void;
  /** When the frame was first written to a socket, and how many times it was written. */
  firstSentAt?: number;
  lastSentAt?: number;
  sends: number;
}

/**
 * The timing of one command, from its first send to its reply. The client reports it once, when
 * the reply arrives, even if the command was sent again on a new socket.
 */
export interface ReplyTiming {
  readonly id: string;
  readonly type: string;
  readonly reply: ReplyFrame;
  /** The first and the last time the frame was written to a socket, in epoch milliseconds (fractional). */
  readonly firstSentAt: number;
  readonly lastSentAt: number;
  /** Epoch milliseconds (fractional) when the reply was read. */
  readonly repliedAt: number;
  /** How many times the frame was written. It is more than one when a new socket resent it. */
  readonly sends: number;
}

/** One frame as the socket carried it, and when. */
export interface WireFrame {
  readonly direction: 'sent' | 'received';
  /** The frame as the wire carried it (for a received frame, a compact profile's text). */
  readonly text: string;
  /** The UTF-8 length of `text`. */
  readonly bytes: number;
  /** When the frame was written or read, in epoch milliseconds (fractional). */
  readonly at: number;
  /** The frame this stands for: the command sent, or the JSON frame a received frame decodes to. */
  readonly frame: unknown;
}

/** Epoch milliseconds with sub-millisecond resolution, on the monotonic clock. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

const utf8 = new TextEncoder();

/** The UTF-8 length of a frame's text, which is what it costs the socket. */
export function utf8Bytes(text: string): number {
  // Printable ASCII (all that a JSON frame holds, unless it carries other characters) is one byte
  // per character. A text with anything else is encoded so that it can be counted.
  return /[^ -~]/.test(text) ? utf8.encode(text).length : text.length;
}

/** The session ended for good (the seat is gone, the room closed) before the command got a reply. */
export class SessionEndedError extends Error {
  readonly closeCode: number;

  constructor(closeCode: number) {
    super(`the session ended (close ${closeCode}) before a reply`);
    this.closeCode = closeCode;
    this.name = 'SessionEndedError';
  }
}

/**
 * One seat's conversation with the server, across however many sockets it takes. It routes each
 * reply to the command with its id, and each event to the listeners of its type. A command without
 * a reply stays pending and goes out again, under the same id, on the next socket attached. The
 * server's replay (PROTOCOL.md section 3) makes that safe. The session is game-agnostic: it knows
 * envelopes, not command or event types.
 */
export class ClientSession<Events extends EventMap = Record<string, unknown>> {
  private socket: FrameSocket | undefined;
  private readonly pending = new Map<string, PendingCommand>();
  private readonly listeners = new Map<string, Set<EventListener<never>>>();
  private readonly anyListeners = new Set<(frame: EventFrame) => void>();
  private readonly replyListeners = new Set<(timing: ReplyTiming) => void>();
  private readonly frameListeners = new Set<(frame: WireFrame) => void>();

  /** `now` is the clock of the timings the session reports, in epoch milliseconds. */
  constructor(private readonly now: () => number = epochNow) {}

  /** Uses `socket` from now on, and sends it every command still waiting for its reply. */
  attach(socket: FrameSocket): void {
    this.socket = socket;
    for (const { frame } of this.pending.values()) this.transmit(frame);
  }

  detach(): void {
    this.socket = undefined;
  }

  /** Sends a command (now if a socket is open, otherwise on the next one) and resolves with its reply. */
  request(frame: CommandFrame): Promise<ReplyFrame> {
    const already = this.pending.get(frame.id);
    if (already) return Promise.reject(new Error(`command id ${frame.id} is already waiting for a reply`));
    return new Promise<ReplyFrame>((resolve, reject) => {
      this.pending.set(frame.id, { frame, resolve, reject, sends: 0 });
      this.transmit(frame);
    });
  }

  /** The commands sent or queued that have no reply yet. */
  get waiting(): number {
    return this.pending.size;
  }

  on<K extends keyof Events & string>(type: K, listener: EventListener<Events[K]>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener as EventListener<never>);
    return () => void set.delete(listener as EventListener<never>);
  }

  /** Hears every event, whatever its type, after the typed listeners. */
  onAny(listener: (frame: EventFrame) => void): () => void {
    this.anyListeners.add(listener);
    return () => void this.anyListeners.delete(listener);
  }

  /** Hears each reply with the times its command was sent and answered (which is the bench's latency). */
  onReply(listener: (timing: ReplyTiming) => void): () => void {
    this.replyListeners.add(listener);
    return () => void this.replyListeners.delete(listener);
  }

  /**
   * Hears every frame written or read, with its text and byte count. The session measures frames
   * only while someone listens, so a client that nobody times pays nothing for it.
   */
  onFrame(listener: (frame: WireFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => void this.frameListeners.delete(listener);
  }

  /** Writes a frame that no command waits on (a heartbeat's ping) to the attached socket. */
  sendUnawaited(frame: CommandFrame): void {
    this.write(frame);
  }

  /** Tells the frame listeners about a frame read from the socket, decoded into `frame`. */
  received(text: string, frame: unknown): void {
    if (this.frameListeners.size === 0) return;
    const wire: WireFrame = { direction: 'received', text, bytes: utf8Bytes(text), at: this.now(), frame };
    for (const listener of this.frameListeners) listener(wire);
  }

  /** Reads one text frame from the server. Frames that are not ours to understand are ignored. */
  receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    this.received(text, value);
    this.receiveFrame(value);
  }

  /** Takes one frame that is already parsed (and decoded from a compact profile, if the socket has one). */
  receiveFrame(value: unknown): void {
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return;
    const frame = value as ReplyFrame | EventFrame;
    if (frame.type === 'reply') return this.settle(frame as ReplyFrame);
    const event = frame as EventFrame;
    for (const listener of this.listeners.get(event.type) ?? []) (listener as EventListener<unknown>)(event.data, event);
    for (const listener of this.anyListeners) listener(event);
  }

  /** Rejects every waiting command, because nothing will answer them any more. */
  end(closeCode: number): void {
    const error = new SessionEndedError(closeCode);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const command of waiting) command.reject(error);
    this.socket = undefined;
  }

  private settle(reply: ReplyFrame): void {
    // A reply with id null answers a frame the server could not read, and no command waits for it.
    if (reply.id === null) return;
    const command = this.pending.get(reply.id);
    if (!command) return;
    this.pending.delete(reply.id);
    if (this.replyListeners.size > 0 && command.firstSentAt !== undefined) {
      const timing: ReplyTiming = {
        id: reply.id,
        type: command.frame.type,
        reply,
        firstSentAt: command.firstSentAt,
        lastSentAt: command.lastSentAt ?? command.firstSentAt,
        repliedAt: this.now(),
        sends: command.sends,
      };
      for (const listener of this.replyListeners) listener(timing);
    }
    command.resolve(reply);
  }

  private transmit(frame: CommandFrame): void {
    const at = this.write(frame);
    const command = this.pending.get(frame.id);
    if (at === undefined || !command) return;
    command.firstSentAt ??= at;
    command.lastSentAt = at;
    command.sends++;
  }

  /** Writes the frame if a socket is open. Returns when it handed the frame over, or undefined if it could not. */
  private write(frame: CommandFrame): number | undefined {
    if (this.socket?.readyState !== SOCKET_OPEN) return undefined;
    const text = JSON.stringify(frame);
    // The time is taken before the write, so that a reply's latency includes the write itself.
    const at = this.now();
    this.socket.send(text);
    if (this.frameListeners.size > 0) {
      const wire: WireFrame = { direction: 'sent', text, bytes: utf8Bytes(text), at, frame };
      for (const listener of this.frameListeners) listener(wire);
    }
    return at;
  }
}
