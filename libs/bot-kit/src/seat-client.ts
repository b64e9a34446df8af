import WebSocket from 'ws';
import {
  ReconnectingClient,
  type FrameSocket,
  type ReplyTiming,
  type TokenStorage,
  type WireFrame,
  type WireProfile,
} from '@game-rooms/client';
import { WIRE_CODES } from '@app/wire-codes';
import { CommandRecord, epochMs, RecordSink, RecordTags } from './bots/command-record';
import { retryAfterSeconds } from './bots/timed-http';
import { UpgradeRefused } from './upgrade-refused';

// `data` is loose on purpose, so that tests can read any field of a frame without narrowing it first.
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

export interface SeatClientOptions {
  /** The profile to ask for. The client decodes each frame back into the JSON frame it stands for. */
  readonly wire?: WireProfile;
  /** How long `send`, `nextEvent`, `until` and `waitClosed` wait by default before they reject. */
  readonly timeoutMs?: number;
  /** How long a command may go without a reply before `command` counts it as timed out. Default: `timeoutMs`. */
  readonly commandTimeoutMs?: number;
  readonly origin?: string;
  /** The room's code, sent as `room=` beside the token so that a proxy can route by it (PROTOCOL.md section 10). */
  readonly room?: string;
  /** The prefix of command ids, because ids must be unique per seat. Default: a random one. */
  readonly idPrefix?: string;
  /**
   * Whether to keep every frame, event and reply since the connect (`frames`, `decoded`, `events`,
   * `replies`), for a test to read afterwards. A bot that runs for hours sets it to `false` and
   * keeps only the events nobody took yet. Default: true.
   */
  readonly history?: boolean;
  /** Receives one record per `command`, and one for the connect (the bench's JSONL). */
  readonly record?: RecordSink;
  /** Tags added to every record of this socket. */
  readonly tags?: RecordTags;
  /** Sends a `ping` this often, as a phone app does to keep its socket alive. 0 or unset means never. */
  readonly keepAliveMs?: number;
  /** Sees every event from the first frame on. A listener added after `connect` may miss the first. */
  readonly onEvent?: (e: GameEvent) => void;
  /** Sees every frame written or read from the first on: its text, bytes and time (the client's `onFrame`). */
  readonly onFrame?: (f: WireFrame) => void;
}

/** What came of one command. It is never a rejection, so that a bench can count every outcome. */
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

// Events nobody asked for yet are kept for a later `nextEvent`. Without a history, at most this
// many are kept, so that a bot that never asks for `question.progress` does not grow without bound.
const MAX_UNREAD_EVENTS = 500;

/** A storage for one token that lives as long as the client, because tests and bots have no page to reload. */
export class OneToken implements TokenStorage {
  private value: string | null = null;
  getItem(): string | null {
    return this.value;
  }
  setItem(_key: string, value: string): void {
    this.value = value;
  }
  removeItem(): void {
    this.value = null;
  }
}

interface Waiter<T> {
  readonly match: (value: T) => boolean;
  readonly resolve: (value: T) => void;
  readonly reject: (err: Error) => void;
}

/**
 * One seat's socket for tests, bots and the bench. It is the published `ReconnectingClient` on a
 * `ws` socket, told not to reconnect, with waits that have a hard timeout (for an event of a type,
 * a reply, a condition, the close), and with the frames kept for a test to read. The client
 * handles the protocol (ids, replies by id, events by type, the compact profiles, the frames'
 * bytes and times). This class only waits and collects.
 */
export class SeatClient {
  readonly client: ReconnectingClient;
  /** Every event since the connect (with `history`). */
  readonly events: GameEvent[] = [];
  /** Every reply since the connect, awaited or not (with `history`). */
  readonly replies: Reply[] = [];
  /** Every frame received, in order, as the wire carried it (with `history`). */
  readonly frames: string[] = [];
  /** Every frame received, decoded into the JSON frame it stands for (with `history`). */
  readonly decoded: (Reply | GameEvent)[] = [];
  /** Resolves with the close, however the socket closes. It never rejects. */
  readonly closed: Promise<Closed>;
  /** The instance that accepted the upgrade, as a proxy names it (`X-Served-By`). Unset without a proxy. */
  servedBy?: string;
  readonly wire: WireProfile;
  private unread: GameEvent[] = [];
  private readonly eventWaiters: Waiter<GameEvent>[] = [];
  private readonly frameWaiters: Waiter<Reply | GameEvent>[] = [];
  private readonly conditions: Waiter<void>[] = [];
  private readonly listeners: ((e: GameEvent) => void)[] = [];
  private readonly timings = new Map<string, ReplyTiming>();
  private closedWith?: Closed;
  /** Why the client dropped the socket, when it did: a frame its profile could not decode. */
  private decodeFailure?: string;
  private keepAlive?: NodeJS.Timeout;
  private readonly timeoutMs: number;
  private readonly history: boolean;

  private constructor(
    /** The raw socket under the client, for tests of raw wire behaviour (oversized frames, a stalled reader). */
    readonly ws: WebSocket,
    client: ReconnectingClient,
    private readonly options: SeatClientOptions,
  ) {
    this.client = client;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.history = options.history ?? true;
    this.wire = options.wire ?? 'json';
    if (options.onEvent) this.listeners.push(options.onEvent);
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: reason.toString() };
        resolve(this.closedWith);
        // Whoever waits on `closed` hears of the close before any waiter is failed by it, so a
        // test that races a reply against the close sees the close win.
        setImmediate(() => this.onClosed());
      }),
    );
    client.onFrame((f) => {
      if (f.direction === 'received') this.onReceived(f.text, f.frame as Reply | GameEvent);
    });
    if (options.onFrame) client.onFrame(options.onFrame);
    client.onAnyEvent((e) => this.heard(e as GameEvent));
    client.onReply((t) => this.timings.set(t.id, t));
    client.onStatus((status) => {
      if (status.dropped?.why !== 'undecodable' || this.decodeFailure) return;
      // The socket's memory no longer matches the server's, so the client dropped it. A bench run
      // counts that as an error instead of misreading every later frame.
      this.decodeFailure = status.dropped.message;
      options.record?.({
        type: 'ws.decode',
        sentAt: epochMs(),
        ms: 0,
        status: null,
        timedOut: false,
        error: this.decodeFailure,
        ...options.tags,
      } as CommandRecord);
    });
  }

  /** Opens a socket. Rejects with `UpgradeRefused` (carrying the HTTP status) when the upgrade is refused. */
  static connect(baseUrl: string, token: string, options: SeatClientOptions = {}): Promise<SeatClient> {
    const room = options.room === undefined ? '' : `room=${encodeURIComponent(options.room)}&`;
    const sentAt = epochMs();
    const started = performance.now();
    let ws!: WebSocket;
    const client = new ReconnectingClient({
      url: (t) => `${baseUrl.replace(/^http/, 'ws')}/ws?${room}token=${encodeURIComponent(t)}`,
      storage: new OneToken(),
      storageKey: 'token',
      token,
      reconnect: false,
      heartbeat: false,
      idPrefix: options.idPrefix ?? `c-${Math.random().toString(36).slice(2, 8)}`,
      ...(options.wire ? { wire: options.wire, codes: WIRE_CODES } : {}),
      createSocket: (url) => {
        ws = new WebSocket(url, {
          headers: options.origin ? { origin: options.origin } : {},
          handshakeTimeout: options.commandTimeoutMs ?? options.timeoutMs ?? 10_000,
        });
        return ws as unknown as FrameSocket;
      },
    });
    client.start();
    const seat = new SeatClient(ws, client, options);
    const record = (status: number | null, error?: string, timedOut = false, retryAfter?: number) =>
      options.record?.({
        type: 'ws.connect',
        sentAt,
        ms: performance.now() - started,
        status,
        timedOut,
        ...(error ? { error } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        ...(seat.servedBy ? { servedBy: seat.servedBy } : {}),
        ...options.tags,
      });
    // Read this before 'open' fires, so that the connect's record and every later one can name it.
    ws.once('upgrade', (res) => {
      const served = res.headers['x-served-by'];
      seat.servedBy = Array.isArray(served) ? served[0] : served;
    });
    // A socket error is followed by 'close', and without a listener the error would throw.
    ws.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        record(101);
        seat.startKeepAlive();
        resolve(seat);
      });
      ws.once('unexpected-response', (_req, res) => {
        record(res.statusCode ?? null, 'upgrade refused', false, retryAfterSeconds(res.headers['retry-after']));
        res.resume();
        // Aborting the handshake closes the socket (1006), which ends the client.
        ws.terminate();
        reject(UpgradeRefused.of(res));
      });
      ws.once('error', (err) => {
        record(null, err.message, /timed out/i.test(err.message));
        reject(err);
      });
    });
  }

  /** Why the client dropped the socket itself, when it did: a frame its profile could not decode. */
  get dropReason(): string | undefined {
    return this.decodeFailure;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a command (under `id` when given, which makes it a replay) and resolves with its reply. Rejects after the timeout. */
  send(type: string, data: unknown = {}, id?: string): Promise<Reply> {
    const sent =
      id === undefined
        ? this.client.send(type, data as Record<string, unknown>)
        : this.client.sendAs(id, type, data as Record<string, unknown>);
    return this.withTimeout(sent as Promise<Reply>, `reply to ${type}${id ? ` ${id}` : ''}`);
  }

  /**
   * Sends a command now and resolves with what came of it, timed and recorded: its reply, or that
   * it timed out, or that it failed with the socket's close. It never rejects. `tags` go on this
   * command's record only.
   */
  command(type: string, data: unknown = {}, id?: string, tags?: RecordTags): Promise<CommandResult> {
    const prepared = this.prepare(type, data, id, tags);
    prepared.send();
    return prepared.result;
  }

  /**
   * Prepares a command without sending it. `send()` hands it to the client, so that several
   * sockets' commands can leave within microseconds of each other (simultaneous votes).
   */
  prepare(type: string, data: unknown = {}, id?: string, tags?: RecordTags): { send: () => void; result: Promise<CommandResult> } {
    let sendNow!: () => void;
    const result = new Promise<CommandResult>((resolve) => {
      sendNow = () => this.dispatch(type, data as Record<string, unknown>, id, tags, resolve);
    });
    return { send: () => sendNow(), result };
  }

  /** Writes raw text (or bytes) to the socket and resolves with the next reply whose id is `id`. */
  sendRaw(frame: string | Buffer, id: string | null = null): Promise<Reply> {
    const reply = this.expectReply(id);
    this.ws.send(frame);
    return reply;
  }

  /** Resolves with the next reply whose id is `id`, whether it was already awaited or not. */
  expectReply(id: string | null): Promise<Reply> {
    return this.nextFrame((f): f is Reply => f.type === 'reply' && (f as Reply).id === id, `reply to ${id}`) as Promise<Reply>;
  }

  /**
   * Resolves with the next event of `type` (matching `match`) not yet taken. The events before it
   * are passed over. Rejects after the timeout, or when the socket closes first.
   */
  nextEvent(type: string, match: (e: GameEvent) => boolean = () => true, timeoutMs = this.timeoutMs): Promise<GameEvent> {
    const test = (e: GameEvent) => e.type === type && match(e);
    const i = this.unread.findIndex(test);
    if (i >= 0) {
      const event = this.unread[i];
      this.unread = this.unread.slice(i + 1);
      return Promise.resolve(event);
    }
    return this.wait(this.eventWaiters, test, `event ${type}`, timeoutMs);
  }

  /** Resolves once `test()` holds, checked now and after every event. */
  until(test: () => boolean, what: string, timeoutMs = this.timeoutMs): Promise<void> {
    if (test()) return Promise.resolve();
    return this.wait(this.conditions, test, what, timeoutMs);
  }

  /** Sees every event as it arrives, before `nextEvent` takes it. */
  onEvent(listener: (e: GameEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves with the close, or rejects after the timeout. */
  waitClosed(timeoutMs = this.timeoutMs): Promise<Closed> {
    return this.withTimeout(this.closed, 'the socket to close', timeoutMs);
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

  private dispatch(
    type: string,
    data: Record<string, unknown>,
    id: string | undefined,
    tags: RecordTags | undefined,
    resolve: (r: CommandResult) => void,
  ): void {
    const finish = (result: CommandResult) => {
      this.options.record?.({
        type: result.type,
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
    if (this.closedWith || !this.isOpen)
      return finish({
        type,
        status: null,
        timedOut: false,
        sentAt,
        ms: 0,
        error: `socket not open${this.closedWith ? ` (${this.closedText()})` : ''}`,
      });
    const sent = id === undefined ? this.client.send(type, data) : this.client.sendAs(id, type, data);
    const limit = this.options.commandTimeoutMs ?? this.timeoutMs;
    const timer = setTimeout(
      () => finish({ type, status: null, timedOut: true, sentAt, ms: epochMs() - sentAt, error: 'timed out' }),
      limit,
    );
    sent.then(
      (reply) => {
        clearTimeout(timer);
        // Use the client's own times: when it wrote the frame, and when it read the reply.
        const t = this.timings.get(reply.id as string);
        this.timings.delete(reply.id as string);
        const from = t?.firstSentAt ?? sentAt;
        const to = t?.repliedAt ?? epochMs();
        finish({
          type,
          status: reply.status,
          reply: reply as Reply,
          timedOut: false,
          sentAt: from,
          repliedAt: to,
          ms: to - from,
          ...(reply.error ? { error: reply.error.code } : {}),
        });
      },
      () => {
        clearTimeout(timer);
        finish({
          type,
          status: null,
          timedOut: false,
          sentAt,
          ms: epochMs() - sentAt,
          error: `socket closed ${this.closedWith ? this.closedText() : this.client.status.closeCode}`,
        });
      },
    );
  }

  private onReceived(text: string, frame: Reply | GameEvent): void {
    if (this.history) {
      this.frames.push(text);
      this.decoded.push(frame);
      if (frame.type === 'reply') this.replies.push(frame as Reply);
    }
    const i = this.frameWaiters.findIndex((w) => w.match(frame));
    if (i >= 0) this.frameWaiters.splice(i, 1)[0].resolve(frame);
  }

  private heard(event: GameEvent): void {
    if (this.history) this.events.push(event);
    for (const l of this.listeners) l(event);
    const i = this.eventWaiters.findIndex((w) => w.match(event));
    if (i >= 0) {
      // Everything before the event taken counts as passed over.
      this.unread = [];
      this.eventWaiters.splice(i, 1)[0].resolve(event);
    } else {
      this.unread.push(event);
      if (!this.history && this.unread.length > MAX_UNREAD_EVENTS) this.unread.splice(0, this.unread.length - MAX_UNREAD_EVENTS);
    }
    for (const c of [...this.conditions]) {
      if (c.match()) {
        this.conditions.splice(this.conditions.indexOf(c), 1);
        c.resolve();
      }
    }
  }

  private nextFrame(match: (f: Reply | GameEvent) => boolean, what: string): Promise<Reply | GameEvent> {
    return this.wait(this.frameWaiters, match, what, this.timeoutMs);
  }

  /**
   * Waits in `list` for a value that `match` accepts. Rejects after the timeout, or at once when
   * the socket has closed.
   */
  private wait<T>(list: Waiter<T>[], match: (value: T) => boolean, what: string, timeoutMs: number): Promise<T> {
    if (this.closedWith) return Promise.reject(new Error(`socket closed (${this.closedText()}) before ${what}`));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      };
      const timer = setTimeout(() => {
        const k = list.indexOf(waiter);
        if (k >= 0) list.splice(k, 1);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      list.push(waiter);
    });
  }

  private withTimeout<T>(promise: Promise<T>, what: string, timeoutMs = this.timeoutMs): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
      promise.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (e) => (clearTimeout(timer), reject(e)),
      );
    });
  }

  private startKeepAlive(): void {
    const every = this.options.keepAliveMs ?? 0;
    if (every <= 0) return;
    // Spread out the first ping, so that sockets opened together do not ping together forever.
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

  /** The close code, and the decode failure that made the client drop the socket, if that was why. */
  private closedText(): string {
    const code = String(this.closedWith?.code);
    return this.decodeFailure ? `${code}, ${this.decodeFailure}` : code;
  }

  private onClosed(): void {
    this.stopKeepAlive();
    const why = new Error(`socket closed (${this.closedText()})`);
    // A frame or an event still awaited will not come now, but a condition may already hold.
    for (const w of this.eventWaiters.splice(0)) w.reject(why);
    for (const w of this.frameWaiters.splice(0)) w.reject(why);
    for (const c of this.conditions.splice(0)) {
      if (c.match()) c.resolve();
      else c.reject(new Error(`${why.message} before the condition held`));
    }
  }
}

/**
 * Resolves with the next event from `cursor.at` on (in `c.decoded`) that `match` accepts, waiting
 * for frames as they arrive.
 */
export function nextEventFrom(
  c: SeatClient,
  cursor: { at: number },
  match: (e: GameEvent) => boolean,
  timeoutMs: number,
): Promise<GameEvent> {
  return new Promise((resolve, reject) => {
    let stop = () => undefined as void;
    const timer = setTimeout(() => (stop(), reject(new Error(`no such event within ${timeoutMs} ms`))), timeoutMs);
    const look = () => {
      while (cursor.at < c.decoded.length) {
        const f = c.decoded[cursor.at++];
        if (f.type !== 'reply' && match(f as GameEvent)) {
          clearTimeout(timer);
          stop();
          return resolve(f as GameEvent);
        }
      }
    };
    stop = c.client.onFrame(look);
    look();
  });
}
