import { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { FrameDecoder, WireProfile } from '@game-rooms/client';
import { WIRE_CODES } from '@app/wire-codes';

export interface Reply {
  readonly type: 'reply';
  readonly id: string | null;
  readonly status: number;
  readonly data?: any;
  readonly error?: { code: string; message: string };
}

export interface GameEvent {
  readonly type: string;
  readonly seq: number;
  readonly data: any;
}

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

export interface ConnectOptions {
  /** The profile to ask for; frames are decoded back into JSON frames on receipt. */
  readonly wire?: WireProfile;
  readonly timeoutMs?: number;
  readonly origin?: string;
  /** The room's code, sent as `room=` beside the token so a proxy can route by it (PROTOCOL.md section 10). */
  readonly room?: string;
}

/**
 * A protocol client for tests, bots and the bench: send a command and await its reply by id,
 * await an event by type. Every wait has a hard timeout.
 */
export class GameClient {
  readonly events: GameEvent[] = [];
  readonly replies: Reply[] = [];
  /** Every frame received, in order, as text (as the wire carried it). */
  readonly frames: string[] = [];
  /** Every frame received, decoded into the JSON frame it stands for. */
  readonly decoded: (Reply | GameEvent)[] = [];
  readonly closed: Promise<Closed>;
  private nextId = 1;
  // Ids are unique per seat across reconnects (the server remembers replies by id), so each
  // client numbers its commands under a prefix of its own.
  private readonly idPrefix = Math.random().toString(36).slice(2, 8);
  private readonly pending = new Map<string, (r: Reply) => void>();
  private readonly eventWaiters: { match: (e: GameEvent) => boolean; resolve: (e: GameEvent) => void }[] = [];
  private eventCursor = 0;

  private readonly decoder: FrameDecoder;

  private constructor(readonly ws: WebSocket, private readonly timeoutMs: number, readonly wire: WireProfile) {
    this.decoder = new FrameDecoder(wire, WIRE_CODES);
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => this.onFrame(data.toString()));
  }

  /** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
  static connect(baseUrl: string, token: string, options: ConnectOptions = {}): Promise<GameClient> {
    const room = options.room === undefined ? '' : `room=${encodeURIComponent(options.room)}&`;
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?${room}token=${encodeURIComponent(token)}${options.wire ? `&wire=${options.wire}` : ''}`;
    const ws = new WebSocket(url, { headers: options.origin ? { origin: options.origin } : {} });
    const client = new GameClient(ws, options.timeoutMs ?? 5000, options.wire ?? 'json');
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        reject(UpgradeRefused.of(res));
        res.resume();
      });
      ws.once('error', reject);
    });
  }

  /** Sends a command and resolves with its reply. */
  send(type: string, data: unknown = {}, id = `c-${this.idPrefix}-${this.nextId++}`): Promise<Reply> {
    const reply = this.expectReply(id);
    this.ws.send(JSON.stringify({ id, type, data }));
    return reply;
  }

  /** Sends raw text (or bytes) and resolves with the next reply whose id is `id`. */
  sendRaw(frame: string | Buffer, id: string | null = null): Promise<Reply> {
    const reply = this.expectReply(id ?? '\0null');
    this.ws.send(frame);
    return reply;
  }

  expectReply(id: string): Promise<Reply> {
    return this.withTimeout(new Promise<Reply>((resolve) => this.pending.set(id, resolve)), `reply to ${id}`);
  }

  /** The next event of `type` not yet taken by an earlier call (events are kept from connect on). */
  nextEvent(type: string, match: (e: GameEvent) => boolean = () => true): Promise<GameEvent> {
    const test = (e: GameEvent) => e.type === type && match(e);
    for (let i = this.eventCursor; i < this.events.length; i++) {
      if (test(this.events[i])) {
        this.eventCursor = i + 1;
        return Promise.resolve(this.events[i]);
      }
    }
    return this.withTimeout(
      new Promise<GameEvent>((resolve) =>
        this.eventWaiters.push({
          match: test,
          resolve: (e) => {
            this.eventCursor = this.events.indexOf(e) + 1;
            resolve(e);
          },
        }),
      ),
      `event ${type}`,
    );
  }

  /** Resolves once the server closes the socket (or rejects after the timeout). */
  waitClosed(): Promise<Closed> {
    return this.withTimeout(this.closed, 'close');
  }

  close(): void {
    this.ws.close(1000);
  }

  private onFrame(text: string): void {
    this.frames.push(text);
    const frame = this.decoder.decode(text) as Reply | GameEvent;
    this.decoded.push(frame);
    if (frame.type === 'reply') {
      const reply = frame as Reply;
      this.replies.push(reply);
      const key = reply.id ?? '\0null';
      const waiter = this.pending.get(key);
      if (waiter) {
        this.pending.delete(key);
        waiter(reply);
      }
      return;
    }
    const event = frame as GameEvent;
    this.events.push(event);
    const i = this.eventWaiters.findIndex((w) => w.match(event));
    if (i >= 0) this.eventWaiters.splice(i, 1)[0].resolve(event);
  }

  private withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms waiting for ${what}`)), this.timeoutMs);
      promise.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (e) => (clearTimeout(timer), reject(e)),
      );
    });
  }
}

export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    /** The refusal's `Retry-After`, in seconds, when it gave one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`the server refused the WebSocket upgrade with HTTP ${status}${retryAfterSeconds !== undefined ? ` (retry after ${retryAfterSeconds} s)` : ''}`);
  }

  /** The refusal a `ws` client's 'unexpected-response' carries. */
  static of(res: IncomingMessage): UpgradeRefused {
    const retryAfter = res.headers['retry-after'];
    return new UpgradeRefused(res.statusCode ?? 0, retryAfter === undefined ? undefined : Number(retryAfter));
  }
}

/** The next event from `cursor.at` on that `match` accepts, waiting for frames as they arrive. */
export function nextEventFrom(c: GameClient, cursor: { at: number }, match: (e: GameEvent) => boolean, timeoutMs: number): Promise<GameEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (c.ws.off('message', look), reject(new Error(`no such event within ${timeoutMs} ms`))), timeoutMs);
    const look = () => {
      while (cursor.at < c.decoded.length) {
        const f = c.decoded[cursor.at++];
        if (f.type !== 'reply' && match(f as GameEvent)) {
          clearTimeout(timer);
          c.ws.off('message', look);
          return resolve(f as GameEvent);
        }
      }
    };
    c.ws.on('message', look);
    look();
  });
}
