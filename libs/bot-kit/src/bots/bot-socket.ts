import WebSocket from 'ws';
import { FrameDecoder, WireProfile } from '@game-rooms/client';
import { WIRE_CODES } from '@app/wire-codes';
import { Closed, GameEvent, Reply, UpgradeRefused } from '../game-client';
import { CommandRecord, epochMs, RecordSink, RecordTags } from './command-record';
import { retryAfterSeconds } from './timed-http';

export interface BotSocketOptions {
  /** The room's code, sent as `room=` so that a proxy in front of several instances routes the socket to its owner. */
  readonly room?: string;
  /** A command without a reply after this long counts as timed out (the field report used 10 s). */
  readonly commandTimeoutMs?: number;
  /** Default wait for an event. */
  readonly eventTimeoutMs?: number;
  /** Receives one record per command, and one for the connect. */
  readonly record?: RecordSink;
  /** Added to every record of this socket. */
  readonly tags?: RecordTags;
  /** Sends a `ping` this often, as a phone app keeps its socket alive; 0 or unset: never. */
  readonly keepAliveMs?: number;
  /** Prefix of command ids; ids must be unique per seat. */
  readonly idPrefix?: string;
  /** Sees every event from the first frame on (a listener added after `connect` may miss it). */
  readonly onEvent?: (e: GameEvent) => void;
  /**
   * The profile to ask for (PROTOCOL.md section 7); every frame is decoded back into the JSON
   * frame it stands for, so the bot plays the same. Default: plain JSON (no `wire=` sent).
   */
  readonly wire?: WireProfile;
}

/** What came of one command; never a rejection, so a bench can count every outcome. */
export interface CommandResult {
  readonly type: string;
  readonly status: number | null;
  readonly reply?: Reply;
  readonly timedOut: boolean;
  /** Epoch ms (fractional) when it was sent and when its reply arrived. */
  readonly sentAt: number;
  readonly repliedAt?: number;
  readonly ms: number;
  readonly error?: string;
}

interface Waiter {
  readonly match: (e: GameEvent) => boolean;
  readonly resolve: (e: GameEvent) => void;
  readonly reject: (err: Error) => void;
}

// Events nobody asked for yet are kept for a later `nextEvent`, up to this many (a bot that
// never asks for `question.progress` must not grow without bound over a long run).
const MAX_BUFFERED_EVENTS = 500;

/**
 * The bots' protocol client: like `GameClient`, but every command is timed and recorded, a
 * command never rejects (it resolves with its status, or as timed out), and it keeps no history
 * beyond the events not yet taken, so thousands of sockets can run for a long time.
 */
export class BotSocket {
  readonly closed: Promise<Closed>;
  private readonly pending = new Map<string, (reply: Reply | null, why?: string) => void>();
  private buffer: GameEvent[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly listeners: ((e: GameEvent) => void)[] = [];
  private readonly conditions: { test: () => boolean; resolve: () => void; reject: (err: Error) => void }[] = [];
  private nextId = 1;
  private closedWith?: Closed;
  private keepAlive?: NodeJS.Timeout;
  private readonly commandTimeoutMs: number;
  private readonly eventTimeoutMs: number;
  private readonly idPrefix: string;
  /** The instance that accepted the upgrade, as a proxy names it (`X-Served-By`); unset without one. */
  servedBy?: string;
  /** A compact profile's decoder: it keeps the socket's memory, so it sees every frame in order. */
  private readonly decoder?: FrameDecoder;
  /** Why the socket was dropped: a frame its profile could not decode. */
  private decodeFailure?: string;

  private constructor(
    private readonly ws: WebSocket,
    private readonly options: BotSocketOptions,
  ) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 10_000;
    this.eventTimeoutMs = options.eventTimeoutMs ?? 30_000;
    this.idPrefix = options.idPrefix ?? 'b';
    if (options.onEvent) this.listeners.push(options.onEvent);
    if (options.wire && options.wire !== 'json') this.decoder = new FrameDecoder(options.wire, WIRE_CODES);
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: reason.toString() };
        this.onClosed(this.closedWith);
        resolve(this.closedWith);
      }),
    );
    ws.on('message', (data) => this.onFrame(data.toString()));
    // A socket error is followed by 'close'; without a listener it would throw.
    ws.on('error', () => undefined);
  }

  /** Opens a socket and records how long the upgrade took (`ws.connect`). */
  static connect(baseUrl: string, token: string, options: BotSocketOptions = {}): Promise<BotSocket> {
    const room = options.room ? `room=${encodeURIComponent(options.room)}&` : '';
    const wire = options.wire && options.wire !== 'json' ? `&wire=${options.wire}` : '';
    const url = `${baseUrl.replace(/^http/, 'ws')}/ws?${room}token=${encodeURIComponent(token)}${wire}`;
    const sentAt = epochMs();
    const started = performance.now();
    const ws = new WebSocket(url, { handshakeTimeout: options.commandTimeoutMs ?? 10_000 });
    const socket = new BotSocket(ws, options);
    const record = (status: number | null, error?: string, timedOut = false, retryAfter?: number) =>
      options.record?.({
        type: 'ws.connect',
        sentAt,
        ms: performance.now() - started,
        status,
        timedOut,
        ...(error ? { error } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        ...(socket.servedBy ? { servedBy: socket.servedBy } : {}),
        ...options.tags,
      });
    // Read before 'open' fires, so the connect's record and every later one can name it.
    ws.once('upgrade', (res) => {
      const served = res.headers['x-served-by'];
      socket.servedBy = Array.isArray(served) ? served[0] : served;
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        record(101);
        socket.startKeepAlive();
        resolve(socket);
      });
      ws.once('unexpected-response', (_req, res) => {
        record(res.statusCode ?? null, 'upgrade refused', false, retryAfterSeconds(res.headers['retry-after']));
        ws.terminate();
        reject(UpgradeRefused.of(res));
      });
      ws.once('error', (err) => {
        const timedOut = /timed out/i.test(err.message);
        record(null, err.message, timedOut);
        reject(err);
      });
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Sends a command now (the frame is written before this returns) and resolves with its reply,
   * or as timed out. Every outcome is recorded. `id` (default: the next of this socket's own)
   * lets a client resend a command under the id it had, as a replay (PROTOCOL.md section 3).
   * `tags` are added to this command's record only (which question, a resend...).
   */
  command(type: string, data: unknown = {}, id?: string, tags?: RecordTags): Promise<CommandResult> {
    const prepared = this.prepare(type, data, id, tags);
    prepared.send();
    return prepared.result;
  }

  /**
   * A command made ready (id, frame, reply handler) but not sent: `send()` only writes the frame,
   * so several sockets' commands can leave within microseconds of each other (simultaneous votes).
   * The timing starts at `send()`.
   */
  prepare(type: string, data: unknown = {}, givenId?: string, tags?: RecordTags): { send: () => void; result: Promise<CommandResult> } {
    const id = givenId ?? `${this.idPrefix}-${this.nextId++}`;
    const frame = JSON.stringify({ id, type, data });
    let sendNow!: () => void;
    const result = new Promise<CommandResult>((resolve) => {
      sendNow = () => this.dispatch(id, type, frame, resolve, tags);
    });
    return { send: () => sendNow(), result };
  }

  private dispatch(id: string, type: string, frame: string, resolve: (r: CommandResult) => void, tags?: RecordTags): void {
    const finish = (result: CommandResult) => {
      this.options.record?.({
        type,
        sentAt: result.sentAt,
        ms: result.ms,
        status: result.status,
        timedOut: result.timedOut,
        ...(result.error ? { error: result.error } : {}),
        ...this.options.tags,
        ...tags,
      } as CommandRecord);
      resolve(result);
    };
    const sentAt = epochMs();
    const started = performance.now();
    if (!this.isOpen) {
      return finish({ type, status: null, timedOut: false, sentAt, ms: 0, error: `socket not open${this.closedWith ? ` (${this.closedText(this.closedWith)})` : ''}` });
    }
    // The frame leaves first; the reply cannot arrive before this turn of the event loop ends.
    this.ws.send(frame);
    const timer = setTimeout(() => {
      this.pending.delete(id);
      finish({ type, status: null, timedOut: true, sentAt, ms: performance.now() - started, error: 'timed out' });
    }, this.commandTimeoutMs);
    this.pending.set(id, (reply, why) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      if (!reply) return finish({ type, status: null, timedOut: false, sentAt, ms, error: why });
      finish({ type, status: reply.status, reply, timedOut: false, sentAt, repliedAt: sentAt + ms, ms, ...(reply.error ? { error: reply.error.code } : {}) });
    });
  }

  /**
   * The next event of `type` (matching `match`) not yet taken: events before it are passed over,
   * as with `GameClient.nextEvent`. Rejects after the timeout or when the socket closes first.
   */
  nextEvent(type: string, match: (e: GameEvent) => boolean = () => true, timeoutMs = this.eventTimeoutMs): Promise<GameEvent> {
    const test = (e: GameEvent) => e.type === type && match(e);
    const i = this.buffer.findIndex(test);
    if (i >= 0) {
      const event = this.buffer[i];
      this.buffer = this.buffer.slice(i + 1);
      return Promise.resolve(event);
    }
    if (this.closedWith) return Promise.reject(new Error(`socket closed (${this.closedText(this.closedWith)}) before event ${type}`));
    return new Promise<GameEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        remove();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for event ${type}`));
      }, timeoutMs);
      const waiter: Waiter = {
        match: test,
        resolve: (e) => (clearTimeout(timer), resolve(e)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      };
      const remove = () => {
        const k = this.waiters.indexOf(waiter);
        if (k >= 0) this.waiters.splice(k, 1);
      };
      this.waiters.push(waiter);
    });
  }

  /** Resolves once `test()` holds, checked now and after every event. */
  until(test: () => boolean, what: string, timeoutMs = this.eventTimeoutMs): Promise<void> {
    if (test()) return Promise.resolve();
    if (this.closedWith) return Promise.reject(new Error(`socket closed (${this.closedText(this.closedWith)}) before ${what}`));
    return new Promise<void>((resolve, reject) => {
      const entry = {
        test,
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (err: Error) => (clearTimeout(timer), reject(err)),
      };
      const timer = setTimeout(() => {
        const k = this.conditions.indexOf(entry);
        if (k >= 0) this.conditions.splice(k, 1);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.conditions.push(entry);
    });
  }

  /** Sees every event as it arrives (before `nextEvent` takes it). */
  onEvent(listener: (e: GameEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves with the close, or rejects after the timeout. */
  waitClosed(timeoutMs = this.eventTimeoutMs): Promise<Closed> {
    return new Promise<Closed>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for the socket to close`)), timeoutMs);
      // `closed` never rejects: it resolves when the socket closes, however it closes.
      void this.closed.then((c) => (clearTimeout(timer), resolve(c)));
    });
  }

  close(code = 1000): void {
    this.stopKeepAlive();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code);
  }

  /** Drops the connection without a closing handshake. */
  terminate(): void {
    this.stopKeepAlive();
    this.ws.terminate();
  }

  private startKeepAlive(): void {
    const every = this.options.keepAliveMs ?? 0;
    if (every <= 0) return;
    // Spread the first ping so that sockets opened together do not ping together forever.
    const first = setTimeout(() => {
      void this.command('ping');
      this.keepAlive = setInterval(() => void this.command('ping'), every);
      this.keepAlive.unref();
    }, Math.random() * every);
    first.unref();
    this.keepAlive = first;
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearTimeout(this.keepAlive);
    this.keepAlive = undefined;
  }

  private onFrame(text: string): void {
    if (this.decodeFailure) return;
    let frame: Reply | GameEvent;
    try {
      frame = (this.decoder ? this.decoder.decode(text) : JSON.parse(text)) as Reply | GameEvent;
    } catch (err) {
      if (!this.decoder) return;
      // The socket's memory no longer matches the server's: every later frame would be misread.
      this.decodeFailure = `a frame could not be decoded as ${this.decoder.profile}: ${err instanceof Error ? err.message : String(err)}`;
      this.options.record?.({ type: 'ws.decode', sentAt: epochMs(), ms: 0, status: null, timedOut: false, error: this.decodeFailure, ...this.options.tags } as CommandRecord);
      this.terminate();
      return;
    }
    if (frame.type === 'reply') {
      const reply = frame as Reply;
      const waiter = reply.id === null ? undefined : this.pending.get(reply.id);
      if (waiter && reply.id !== null) {
        this.pending.delete(reply.id);
        waiter(reply);
      }
      return;
    }
    const event = frame as GameEvent;
    for (const l of this.listeners) l(event);
    const i = this.waiters.findIndex((w) => w.match(event));
    if (i >= 0) {
      // Everything before the event taken counts as passed over.
      this.buffer = [];
      this.waiters.splice(i, 1)[0].resolve(event);
    } else {
      this.buffer.push(event);
      if (this.buffer.length > MAX_BUFFERED_EVENTS) this.buffer.splice(0, this.buffer.length - MAX_BUFFERED_EVENTS);
    }
    for (const c of [...this.conditions]) {
      if (c.test()) {
        this.conditions.splice(this.conditions.indexOf(c), 1);
        c.resolve();
      }
    }
  }

  /** The close code, and the decode failure that made the bot drop the socket, if that was why. */
  private closedText(closed: Closed): string {
    return this.decodeFailure ? `${closed.code}, ${this.decodeFailure}` : String(closed.code);
  }

  private onClosed(closed: Closed): void {
    this.stopKeepAlive();
    for (const [id, waiter] of [...this.pending]) {
      this.pending.delete(id);
      waiter(null, `socket closed ${this.closedText(closed)}`);
    }
    for (const w of this.waiters.splice(0)) w.reject(new Error(`socket closed (${this.closedText(closed)})`));
    for (const c of this.conditions.splice(0)) {
      if (c.test()) c.resolve();
      else c.reject(new Error(`socket closed (${this.closedText(closed)})`));
    }
  }
}
