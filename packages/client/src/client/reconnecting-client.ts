import { CloseCode } from '../statuses.js';
import { codeTable, type CodeTable } from '../codec/code-table.js';
import { FrameDecoder } from '../codec/frame-decoder.js';
import type { EventFrame, ReplyFrame, WireProfile } from '../wire.types.js';
import { ClientSession, epochNow, type EventListener, type EventMap, type ReplyTiming, type WireFrame } from './client-session.js';
import { globalTimers, SOCKET_OPEN, type FrameSocket, type SocketFactory, type Timers, type TokenStorage } from './frame-socket.js';

/** The connection's state: `connecting` the first time, `open`, `reconnecting` after a drop, and `ended` for good. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'ended';

export interface ConnectionStatus {
  readonly state: ConnectionState;
  /** The close that ended the session, or that the client is recovering from. */
  readonly closeCode?: number;
  /** How many attempts failed since the last socket that got a frame through. */
  readonly attempt: number;
  /**
   * Set when this side gave up the socket itself, with a message. Either the socket stayed
   * `silent` past the heartbeat, or it sent a frame that its compact profile could not decode
   * (`undecodable`; the message is then the decoder's).
   */
  readonly dropped?: { readonly why: 'silent' | 'undecodable'; readonly message: string };
}

export interface ReconnectingClientOptions {
  /** The WebSocket URL for a token: `/ws?token=...` on the page's origin. */
  readonly url: (token: string) => string;
  readonly storage: TokenStorage;
  /** The storage key of this seat's token. */
  readonly storageKey: string;
  /** A new token to keep, just issued by the HTTP API. Without it, the stored token is used. */
  readonly token?: string;
  readonly createSocket?: SocketFactory;
  readonly timers?: Timers;
  /** Returns a number in [0, 1) for the jitter of each backoff delay. */
  readonly random?: () => number;
  /** A prefix of command ids that no earlier page load of this seat used, because command ids must never repeat. */
  readonly idPrefix?: string;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /**
   * A socket that carries nothing for `idleMs` sends a ping. If it then stays silent for
   * `timeoutMs` (or does not deliver its first frame within `connectMs`), it is taken for dead and
   * replaced. This matters because a phone that changes networks can keep a dead TCP connection
   * for minutes without a close event. `false` turns the heartbeat off.
   */
  readonly heartbeat?: { readonly idleMs: number; readonly timeoutMs: number; readonly connectMs: number } | false;
  /**
   * The wire profile to ask for (PROTOCOL.md section 7). It is added to the URL as `wire=`, and
   * each socket's frames are decoded with a memory of their own. JSON when absent.
   */
  readonly wire?: WireProfile;
  /** The compact-v2 code table to decode with (the server's `WIRE_CODES`). A compact profile needs it. */
  readonly codes?: CodeTable;
  /**
   * With `false`, the client uses one socket only. Whatever closes it ends the client, with that
   * close's code (for a test that watches the server close a socket, or a bench that counts drops
   * itself). The token stays unless the close says it is no good. Default: reconnect.
   */
  readonly reconnect?: boolean;
  /** The clock of `onReply` and `onFrame`, in epoch milliseconds. Default: `performance`'s, with sub-millisecond resolution. */
  readonly now?: () => number;
}

const DEFAULT_HEARTBEAT = { idleMs: 15_000, timeoutMs: 5_000, connectMs: 10_000 };

// These closes are final. The seat or the room is gone (4003, 4004), or the token is refused
// (4001). A binary or oversized frame (1003, 1009) would be refused again. The seat's newer socket
// took over (4010), and reconnecting would push that one out in turn. Any other close is worth
// another socket: a drop, a server going away (1001), a room moving to another instance (1012).
const FINAL_CLOSES: ReadonlySet<number> = new Set([
  CloseCode.tokenInvalid,
  CloseCode.seatGone,
  CloseCode.roomClosed,
  CloseCode.binaryFrame,
  CloseCode.frameTooLarge,
  CloseCode.replaced,
]);
// After this close the seat is still good, only open elsewhere, so a reload here may take it back.
const KEEP_TOKEN: ReadonlySet<number> = new Set([CloseCode.replaced]);

/** The delay before reconnect attempt `attempt` (0-based): exponential, capped, with jitter between half and the full value. */
export function backoffDelay(attempt: number, random: number, initialMs = 250, maxMs = 5000): number {
  const full = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(full / 2 + (full / 2) * random);
}

/** A game's commands by type, each with the shape of its data (the input of the game's schemas). */
export type CommandMap = object;

/** The data argument of `send`. It is optional when the command takes no fields. */
export type CommandArgs<Commands, K extends keyof Commands> =
  Record<never, never> extends Commands[K] ? [data?: Commands[K]] : [data: Commands[K]];

/**
 * A seat's connection that survives a bad network. It keeps the seat's token in session storage,
 * opens a new socket with backoff after a drop, and resends, under the same id, every command that
 * got no reply. It stops for good on 4001, 4003 and 4004, and then forgets the token. It also stops
 * on 4010, when the seat's newer socket took over, but then the token stays.
 *
 * @example
 *   const client = new ReconnectingClient<MyGameEvents, MyGameCommands>({ url: (t) => `${wsBase}/ws?token=${t}`,
 *     storage: sessionStorage, storageKey: 'seat:K7QMPD', token: playerToken })
 *   client.on('round.open', (r) => show(r))
 *   const reply = await client.send('round.move', { round: 0, move: 2 })
 */
export class ReconnectingClient<
  Events extends EventMap = Record<string, unknown>,
  Commands extends CommandMap = Record<string, Record<string, unknown>>,
> {
  private readonly session: ClientSession<Events>;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly createSocket: SocketFactory;
  private readonly idPrefix: string;
  private socket: FrameSocket | undefined;
  private retryTimer: unknown;
  private watchdog: unknown;
  private nextId = 1;
  private current: ConnectionStatus = { state: 'connecting', attempt: 0 };
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private readonly options: ReconnectingClientOptions;

  constructor(options: ReconnectingClientOptions) {
    this.options = options;
    this.session = new ClientSession<Events>(options.now ?? epochNow);
    this.timers = options.timers ?? globalTimers;
    this.random = options.random ?? Math.random;
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as FrameSocket);
    this.idPrefix = options.idPrefix ?? randomPrefix();
    if (options.token) options.storage.setItem(options.storageKey, options.token);
  }

  /** The stored token, if this seat has one. */
  get token(): string | null {
    return this.options.storage.getItem(this.options.storageKey);
  }

  get status(): ConnectionStatus {
    return this.current;
  }

  /** Opens the first socket. Ends at once (4001) when no token is stored. */
  start(): void {
    if (this.socket || this.current.state === 'ended') return;
    this.connect();
  }

  /** Sends a command, and resolves with its one reply, however many sockets that takes. */
  send<K extends keyof Commands & string>(type: K, ...args: CommandArgs<Commands, K>): Promise<ReplyFrame> {
    if (this.current.state === 'ended') return Promise.reject(new Error('the connection has ended'));
    return this.session.request({ id: `${this.idPrefix}-${this.nextId++}`, type, data: args[0] ?? {} });
  }

  /**
   * Sends a command under an id the caller chose, and resolves with its reply. Sending again under
   * the id of a command that was answered asks the server for that reply again: the server answers
   * from memory and does not run the command twice (PROTOCOL.md section 3). Apart from that, ids
   * must never repeat for a seat.
   */
  sendAs<K extends keyof Commands & string>(id: string, type: K, ...args: CommandArgs<Commands, K>): Promise<ReplyFrame> {
    if (this.current.state === 'ended') return Promise.reject(new Error('the connection has ended'));
    return this.session.request({ id, type, data: args[0] ?? {} });
  }

  /** How many commands, sent or queued, have no reply yet. */
  get waiting(): number {
    return this.session.waiting;
  }

  on<K extends keyof Events & string>(type: K, listener: EventListener<Events[K]>): () => void {
    return this.session.on(type, listener);
  }

  /** Hears every event, whatever its type, after the listeners of its type. */
  onAnyEvent(listener: (frame: EventFrame) => void): () => void {
    return this.session.onAny(listener);
  }

  /**
   * Hears each command's reply, with when the command was first and last written to a socket, when
   * its reply was read, and how many sockets it took. A caller gets the latency without timers of
   * its own.
   */
  onReply(listener: (timing: ReplyTiming) => void): () => void {
    return this.session.onReply(listener);
  }

  /**
   * Hears every frame written or read, as text on the wire (a compact profile's text for a
   * received frame), with its byte count, its time and the JSON frame it stands for.
   */
  onFrame(listener: (frame: WireFrame) => void): () => void {
    return this.session.onFrame(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => void this.statusListeners.delete(listener);
  }

  /** Tells the client the network is back (the page saw `online`), so it tries now instead of at the end of the backoff. */
  retryNow(): void {
    if (this.current.state !== 'reconnecting' || this.socket) return;
    this.timers.clearTimeout(this.retryTimer);
    this.connect();
  }

  /** Closes for good, from this side, with no reconnect. The token stays, so a reload may resume. */
  close(): void {
    this.timers.clearTimeout(this.retryTimer);
    this.timers.clearTimeout(this.watchdog);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = socket.onmessage = socket.onopen = socket.onerror = null;
      socket.close(1000, 'client closed');
    }
    this.session.end(1000);
    this.setStatus({ state: 'ended', closeCode: 1000, attempt: this.current.attempt });
  }

  private connect(): void {
    const token = this.token;
    if (!token) return this.finish(CloseCode.tokenInvalid);
    const wire = this.options.wire ?? 'json';
    const url = this.options.url(token);
    const socket = this.createSocket(wire === 'json' ? url : `${url}${url.includes('?') ? '&' : '?'}wire=${wire}`);
    this.socket = socket;
    // A new socket starts a new compact stream, so its memory starts empty.
    const decoder = new FrameDecoder(wire, this.options.codes ?? codeTable(0, []));
    let delivered = false;
    const heartbeat = this.options.heartbeat === false ? undefined : (this.options.heartbeat ?? DEFAULT_HEARTBEAT);
    // Arms the watchdog for when the next frame is due: first the socket's first frame, then after a quiet spell, a ping's answer.
    const expect = (ms: number, then: () => void) => {
      this.timers.clearTimeout(this.watchdog);
      this.watchdog = this.timers.setTimeout(then, ms);
    };
    let dropped: ConnectionStatus['dropped'];
    const dead = (why: 'silent' | 'undecodable' = 'silent', message = 'no frame in time') => {
      socket.onclose = socket.onmessage = socket.onopen = socket.onerror = null;
      dropped = { why, message };
      socket.close(4000, why === 'silent' ? message : 'undecodable frame');
      lost(1006);
    };
    const quiet = () => {
      if (socket.readyState === SOCKET_OPEN)
        this.session.sendUnawaited({ id: `${this.idPrefix}-hb${this.nextId++}`, type: 'ping', data: {} });
      expect(heartbeat!.timeoutMs, () => dead());
    };
    const lost = (code: number) => {
      this.timers.clearTimeout(this.watchdog);
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.session.detach();
      if (FINAL_CLOSES.has(code)) return this.finish(code);
      if (this.options.reconnect === false) return this.finish(code, true, dropped);
      const attempt = delivered ? 0 : this.current.attempt;
      this.setStatus({ state: 'reconnecting', closeCode: code, attempt: attempt + 1, ...(dropped ? { dropped } : {}) });
      const backoff = this.options.backoff ?? { initialMs: 250, maxMs: 5000 };
      this.retryTimer = this.timers.setTimeout(
        () => this.connect(),
        backoffDelay(attempt, this.random(), backoff.initialMs, backoff.maxMs),
      );
    };
    if (heartbeat) expect(heartbeat.connectMs, () => dead());
    socket.onopen = () => {
      this.session.attach(socket);
      this.setStatus({ state: 'open', attempt: this.current.attempt });
    };
    socket.onmessage = (event) => {
      // A socket counts as healthy once a frame came through, not merely on open, so that a
      // server that accepts and then closes at once is still backed off from.
      if (!delivered) {
        delivered = true;
        if (this.current.attempt !== 0) this.setStatus({ state: 'open', attempt: 0 });
      }
      if (heartbeat) expect(heartbeat.idleMs, quiet);
      if (typeof event.data !== 'string') return;
      let frame: unknown;
      try {
        frame = decoder.decode(event.data);
      } catch (err) {
        // A JSON frame that does not parse is ignored, as it always was. A compact stream that
        // this client cannot read any further is replaced, because a fresh socket starts one it can read.
        const message = `a frame could not be decoded as ${wire}: ${err instanceof Error ? err.message : String(err)}`;
        return wire === 'json' ? undefined : dead('undecodable', message);
      }
      this.session.received(event.data, frame);
      this.session.receiveFrame(frame);
    };
    socket.onerror = () => undefined;
    socket.onclose = (event) => lost(event.code);
  }

  private finish(closeCode: number, keepToken = KEEP_TOKEN.has(closeCode), dropped?: ConnectionStatus['dropped']): void {
    if (!keepToken) this.options.storage.removeItem(this.options.storageKey);
    this.session.end(closeCode);
    this.setStatus({ state: 'ended', closeCode, attempt: this.current.attempt, ...(dropped ? { dropped } : {}) });
  }

  private setStatus(status: ConnectionStatus): void {
    this.current = status;
    for (const listener of this.statusListeners) listener(status);
  }
}

function randomPrefix(): string {
  const bytes = new Uint8Array(6);
  // Use getRandomValues, because unlike randomUUID it works on a plain-http page (a phone on the LAN).
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
