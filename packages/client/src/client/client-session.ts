import type { CommandFrame, EventFrame, ReplyFrame } from '../wire.types.js';
import { SOCKET_OPEN, type FrameSocket } from './frame-socket.js';

// An interface of event types to payloads ({"round.open": {...}}); object, so that an interface
// without an index signature fits.
export type EventMap = object;

export type EventListener<T> = (data: T, frame: EventFrame<T>) => void;

interface PendingCommand {
  readonly frame: CommandFrame;
  readonly resolve: (reply: ReplyFrame) => void;
  readonly reject: (error: Error) => void;
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
 * One seat's conversation with the server, across however many sockets it takes: routes each
 * reply to the command with its id and each event to the listeners of its type. A command
 * without a reply stays pending and goes out again, under the same id, on the next socket
 * attached; the server's replay (PROTOCOL.md section 3) makes that safe. Game-agnostic: it
 * knows envelopes, not command or event types.
 */
export class ClientSession<Events extends EventMap = Record<string, unknown>> {
  private socket: FrameSocket | undefined;
  private readonly pending = new Map<string, PendingCommand>();
  private readonly listeners = new Map<string, Set<EventListener<never>>>();
  private readonly anyListeners = new Set<(frame: EventFrame) => void>();

  /** Uses `socket` from now on, and sends it every command still waiting for its reply. */
  attach(socket: FrameSocket): void {
    this.socket = socket;
    for (const { frame } of this.pending.values()) this.transmit(frame);
  }

  detach(): void {
    this.socket = undefined;
  }

  /** Sends a command (now if a socket is open, else on the next one) and resolves with its reply. */
  request(frame: CommandFrame): Promise<ReplyFrame> {
    const already = this.pending.get(frame.id);
    if (already) return Promise.reject(new Error(`command id ${frame.id} is already waiting for a reply`));
    return new Promise<ReplyFrame>((resolve, reject) => {
      this.pending.set(frame.id, { frame, resolve, reject });
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

  /** Every event, whatever its type (after the typed listeners). */
  onAny(listener: (frame: EventFrame) => void): () => void {
    this.anyListeners.add(listener);
    return () => void this.anyListeners.delete(listener);
  }

  /** Reads one text frame from the server. Frames that are not ours to understand are ignored. */
  receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    this.receiveFrame(value);
  }

  /** One frame already parsed (and decoded from a compact profile, if the socket has one). */
  receiveFrame(value: unknown): void {
    if (typeof value !== 'object' || value === null || typeof (value as { type?: unknown }).type !== 'string') return;
    const frame = value as ReplyFrame | EventFrame;
    if (frame.type === 'reply') return this.settle(frame as ReplyFrame);
    const event = frame as EventFrame;
    for (const listener of this.listeners.get(event.type) ?? []) (listener as EventListener<unknown>)(event.data, event);
    for (const listener of this.anyListeners) listener(event);
  }

  /** Rejects every waiting command: nothing will answer them any more. */
  end(closeCode: number): void {
    const error = new SessionEndedError(closeCode);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const command of waiting) command.reject(error);
    this.socket = undefined;
  }

  private settle(reply: ReplyFrame): void {
    // A reply with id null answers a frame the server could not read; no command waits for it.
    if (reply.id === null) return;
    const command = this.pending.get(reply.id);
    if (!command) return;
    this.pending.delete(reply.id);
    command.resolve(reply);
  }

  private transmit(frame: CommandFrame): void {
    if (this.socket?.readyState !== SOCKET_OPEN) return;
    this.socket.send(JSON.stringify(frame));
  }
}
