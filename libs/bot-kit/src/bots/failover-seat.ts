import WebSocket from 'ws';
import { ReconnectingClient, type ConnectionStatus, type FrameSocket, type ReplyTiming } from '@game-rooms/client';
import { CommandResult, GameEvent, OneToken, Reply } from '../seat-client';
import { CommandRecord, epochMs, RecordSink, RecordTags } from './command-record';
import { sleep } from './human-pause';

/** Backoff between reconnects and between retries of a refused (503) command. */
export interface SeatBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

// The first wait is about 100 ms, doubling each time, capped at 2 s. A moved room is back within
// about a lease (6 s), and a few hundred seats must not hammer the proxy until it is.
export const SEAT_BACKOFF: SeatBackoff = { initialMs: 100, maxMs: 2000 };

// A command refused as busy (503, 429) is tried again at most this many times. That is far more
// than a failover needs, and it keeps the retries bounded.
const MAX_SENDS = 40;

/** What came of one command, over however many sockets and sends it took. */
export interface SeatCommandOutcome {
  readonly room: string;
  readonly seat: string;
  readonly type: string;
  readonly id: string;
  /** The final reply's status, or null when the seat ended (or gave up) before one came. */
  readonly status: number | null;
  readonly error?: string;
  /** How many frames were written under this id. */
  readonly sends: number;
  /** How many 503 or 429 replies came before the final one. Nothing was recorded, so each was retried under the same id. */
  readonly busy: number;
  /** How many frames were written that got no reply, because the socket closed under them. */
  readonly unanswered: number;
  /** The instance whose socket carried the final reply (the proxy's `X-Served-By`). */
  readonly servedBy?: string;
  /** The times of the first send and of the final reply, in epoch ms. */
  readonly firstSentAt: number;
  readonly repliedAt?: number;
}

/** A seat's socket that got back into its room, because its first `room.state` arrived. */
export interface SeatResume {
  readonly room: string;
  readonly seat: string;
  /** When the `room.state` arrived, in epoch ms. */
  readonly at: number;
  readonly servedBy?: string;
  /** The close that made the seat reconnect. It is absent for the first socket. */
  readonly after?: number;
  /** How many sockets were tried before this one got in. */
  readonly tries: number;
  /**
   * How those tries failed: `upgrade 503` (the proxy had no live instance for the room), `close
   * 1012` (accepted, but the room was still another instance's), `error`, and so on.
   */
  readonly failed: Readonly<Record<string, number>>;
}

export interface FailoverSeatOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** The room's code. It goes in the socket URL as `room=`, and tags every record and outcome. */
  readonly room: string;
  /** The records' `seat` tag: `host`, `p1`, `p2`, and so on. */
  readonly seat: string;
  /** A socket silent for this long is pinged, and it is given up if it stays silent for as long again. */
  readonly commandTimeoutMs: number;
  readonly backoff?: SeatBackoff;
  /** A seat that cannot get back in for this long gives up and ends. */
  readonly resumeTimeoutMs: number;
  /**
   * How many sockets are tried for the seat's first way in before it gives up and ends. Default:
   * as many as `resumeTimeoutMs` allows. 1 makes a refused first socket final, as refused new work
   * is final.
   */
  readonly firstOpenTries?: number;
  readonly record?: RecordSink;
  readonly tags?: RecordTags;
  readonly signal?: AbortSignal;
  readonly random?: () => number;
  /** Every event of every socket of this seat, in order. */
  readonly onEvent?: (e: GameEvent) => void;
  readonly onCommand?: (outcome: SeatCommandOutcome) => void;
  readonly onResume?: (resume: SeatResume) => void;
  /** Hears the close code when a socket of this seat was closed by the server or the network, not by the bot. */
  readonly onDrop?: (code: number) => void;
}

/**
 * One seat's place in a room that survives its instance, for the failover and outage benches. It
 * uses the published `ReconnectingClient` through the proxy. The client opens a new socket with
 * backoff after any close that is not final, and resends under the same id each command without a
 * reply; the server replays the reply if it had committed the command (PROTOCOL.md sections 3 and
 * 5). This class adds what a bench counts: which instance served each socket, how each attempt to
 * get back in failed, the records of the JSONL, a 503 tried again under the same id, and a seat
 * that gives up after `resumeTimeoutMs` without a way back in.
 */
export class FailoverSeat {
  private readonly client: ReconnectingClient;
  private endedWith?: string;
  private closedByUs = false;
  private readonly watchers = new Set<() => void>();
  private readonly backoff: SeatBackoff;
  private readonly random: () => number;
  private readonly onAbort = () => this.end('aborted');
  private readonly timings = new Map<string, ReplyTiming>();
  /** Frames written under each id still in flight. */
  private readonly writes = new Map<string, number>();
  /** The socket now serving the seat: whether its `room.state` came, and which instance serves it. */
  private socket?: { servedBy?: string; resumed: boolean; refused?: number; opened?: boolean };
  private resumed = false;
  /** The close that sent the seat looking for a new socket, and how the attempts since then went. */
  private after?: number;
  private tries = 0;
  private failed: Record<string, number> = {};
  private resumeTimer?: NodeJS.Timeout;
  private readonly opened: Promise<void>;

  constructor(private readonly o: FailoverSeatOptions) {
    this.backoff = o.backoff ?? SEAT_BACKOFF;
    this.random = o.random ?? Math.random;
    o.signal?.addEventListener('abort', this.onAbort, { once: true });
    const quiet = Math.max(1, Math.round(o.commandTimeoutMs / 2));
    this.client = new ReconnectingClient({
      url: (t) => `${o.baseUrl.replace(/^http/, 'ws')}/ws?room=${encodeURIComponent(o.room)}&token=${encodeURIComponent(t)}`,
      storage: new OneToken(),
      storageKey: 'token',
      token: o.token,
      backoff: this.backoff,
      random: this.random,
      idPrefix: `${o.seat}-${Math.random().toString(36).slice(2, 8)}`,
      // A killed instance's TCP connection can linger without a close. So a socket that says
      // nothing for half a command's timeout is pinged, and one still silent after the other half
      // is replaced.
      heartbeat: { idleMs: quiet, timeoutMs: quiet, connectMs: o.commandTimeoutMs },
      createSocket: (url) => this.openSocket(url),
    });
    this.client.onAnyEvent((e) => this.heard(e as GameEvent));
    this.client.onReply((t) => this.timings.set(t.id, t));
    this.client.onFrame((f) => {
      const id = (f.frame as { id?: string }).id;
      if (f.direction === 'sent' && id !== undefined && this.writes.has(id)) this.writes.set(id, this.writes.get(id)! + 1);
    });
    this.client.onStatus((s) => this.statusChanged(s));
    this.opened = new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.resumed) done();
        else if (this.endedWith) done(new Error(`seat ${o.seat} of ${o.room} could not get in: ${this.endedWith}`));
      };
      const done = (err?: Error) => {
        this.watchers.delete(check);
        if (err) reject(err);
        else resolve();
      };
      this.watchers.add(check);
    });
    // Nobody may await `open()`, and a seat that could not get in must not become an unhandled rejection.
    this.opened.catch(() => undefined);
  }

  /** Why the seat is over (a final close, it gave up, it was aborted), or undefined while it plays. */
  get ended(): string | undefined {
    return this.endedWith;
  }

  /** Opens the first socket. Resolves once its `room.state` is in, and rejects if the seat ends first. */
  open(): Promise<void> {
    if (this.client.status.state === 'connecting' && !this.socket) {
      this.client.start();
      this.startResumeClock();
    }
    return this.opened;
  }

  /**
   * Sends a command under `id` until it gets a reply that is not 503 or 429. The client resends it
   * on each new socket, and a busy reply is tried again after a pause. It never rejects: an outcome
   * with status null says the seat ended first.
   */
  async command(type: string, data: unknown, id: string): Promise<SeatCommandOutcome> {
    let sends = 0;
    let busy = 0;
    let unanswered = 0;
    let firstSentAt: number | undefined;
    for (let tries = 0; ; tries++) {
      const { result: r, written } = await this.sendOnce(type, data, id);
      sends += written;
      firstSentAt ??= r?.sentAt;
      // Every frame except the one its reply answered went on a socket that closed under it.
      unanswered += r ? Math.max(0, written - 1) : written;
      if ((r?.status === 503 || r?.status === 429) && tries + 1 < MAX_SENDS && !this.endedWith) {
        busy++;
        // Nothing was recorded, so the same id is tried afresh after a pause.
        await sleep(this.delay(busy - 1), this.o.signal);
        continue;
      }
      const done: SeatCommandOutcome = {
        room: this.o.room,
        seat: this.o.seat,
        type,
        id,
        status: r?.status ?? null,
        ...((r?.error ?? this.endedWith) ? { error: r?.error ?? `seat ended: ${this.endedWith}` } : {}),
        sends,
        busy,
        unanswered,
        ...(r?.status != null && this.socket?.servedBy ? { servedBy: this.socket.servedBy } : {}),
        firstSentAt: firstSentAt ?? epochMs(),
        ...(r?.repliedAt ? { repliedAt: r.repliedAt } : {}),
      };
      this.o.onCommand?.(done);
      return done;
    }
  }

  /**
   * Sends a command under `id` and resolves with its one reply, whatever it says. The client
   * resends it on a new socket if the one it went on closes first. Resolves with undefined when the
   * seat ended before a reply. `tags` go on this command's record only.
   */
  async commandOnce(type: string, data: unknown, id: string, tags?: RecordTags): Promise<CommandResult | undefined> {
    return (await this.sendOnce(type, data, id, tags)).result;
  }

  /** Does what `commandOnce` does, and also returns how many frames went out under the id. */
  private async sendOnce(type: string, data: unknown, id: string, tags?: RecordTags): Promise<{ result?: CommandResult; written: number }> {
    if (this.endedWith) return { written: 0 };
    const requested = epochMs();
    this.writes.set(id, 0);
    let result: CommandResult | undefined;
    let written: number;
    try {
      const reply = (await this.client.sendAs(id, type, data as Record<string, unknown>)) as Reply;
      const t = this.timings.get(id);
      const sentAt = t?.firstSentAt ?? requested;
      const repliedAt = t?.repliedAt ?? epochMs();
      result = {
        type,
        status: reply.status,
        reply,
        timedOut: false,
        sentAt,
        repliedAt,
        ms: repliedAt - sentAt,
        ...(reply.error ? { error: reply.error.code } : {}),
      };
    } catch {
      result = undefined;
    } finally {
      this.timings.delete(id);
      written = this.writes.get(id) ?? 0;
      this.writes.delete(id);
    }
    this.o.record?.({
      type,
      sentAt: result?.sentAt ?? requested,
      ms: result?.ms ?? epochMs() - requested,
      status: result?.status ?? null,
      timedOut: false,
      ...((result?.error ?? (result ? undefined : `seat ended: ${this.endedWith}`))
        ? { error: result?.error ?? `seat ended: ${this.endedWith}` }
        : {}),
      ...this.o.tags,
      room: this.o.room,
      seat: this.o.seat,
      ...(this.socket?.servedBy ? { servedBy: this.socket.servedBy } : {}),
      ...tags,
    } as CommandRecord);
    return { result, written };
  }

  /** Resolves once `test()` holds, checked after every event and every change of socket. */
  until(test: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (test()) finish();
        else if (this.endedWith) finish(new Error(`seat ${this.o.seat} of ${this.o.room} ended (${this.endedWith}) before ${what}`));
      };
      const timer = setTimeout(
        () => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${this.o.room}, seat ${this.o.seat})`)),
        timeoutMs,
      );
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.watchers.delete(check);
        if (err) reject(err);
        else resolve();
      };
      this.watchers.add(check);
      check();
    });
  }

  /** Closes from this side, for good, with no reconnect. */
  close(): void {
    this.closedByUs = true;
    this.end('closed by the bot');
  }

  /**
   * Opens a `ws` socket for the client, watched for what the bench counts: the instance, a refused
   * upgrade, the connect's record.
   */
  private openSocket(url: string): FrameSocket {
    const ws = new WebSocket(url, { handshakeTimeout: this.o.commandTimeoutMs });
    const socket: { servedBy?: string; resumed: boolean; refused?: number; opened?: boolean } = { resumed: false };
    this.socket = socket;
    const sentAt = epochMs();
    const started = performance.now();
    // Tag a socket opened again after a close as a reconnect. The seat's first way in is not tagged.
    const tags = { ...this.o.tags, room: this.o.room, seat: this.o.seat, ...(this.after !== undefined ? { reconnect: true } : {}) };
    const record = (status: number | null, error?: string, retryAfter?: string) =>
      this.o.record?.({
        type: 'ws.connect',
        sentAt,
        ms: performance.now() - started,
        status,
        timedOut: error !== undefined && /timed out/i.test(error),
        ...(error ? { error } : {}),
        ...(retryAfter !== undefined ? { retryAfter: Number(retryAfter) } : {}),
        ...tags,
        ...(socket.servedBy ? { servedBy: socket.servedBy } : {}),
      } as CommandRecord);
    ws.once('upgrade', (res) => {
      const served = res.headers['x-served-by'];
      socket.servedBy = Array.isArray(served) ? served[0] : served;
    });
    ws.once('open', () => {
      socket.opened = true;
      record(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      socket.refused = res.statusCode ?? 0;
      const retryAfter = res.headers['retry-after'];
      record(socket.refused, 'upgrade refused', Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
      res.resume();
      // Aborting the handshake closes the socket (1006), and the client tries again after its backoff.
      ws.terminate();
      // A 401 means this token will never get in.
      if (socket.refused === 401) setImmediate(() => this.end('token refused (401)'));
    });
    ws.on('error', (err) => {
      if (ws.readyState === WebSocket.CONNECTING && socket.refused === undefined) record(null, err.message);
    });
    ws.once('close', (code) => {
      if (socket.resumed || this.endedWith) return;
      // The socket closed before its first `room.state` (1012: the room is still another's), or it was refused.
      this.tries++;
      const why = socket.refused !== undefined ? `upgrade ${socket.refused}` : socket.opened ? `close ${code}` : 'error';
      this.failed[why] = (this.failed[why] ?? 0) + 1;
      if (this.after === undefined && this.o.firstOpenTries !== undefined && this.tries >= this.o.firstOpenTries) {
        setImmediate(() => this.end(`could not get in (${Object.keys(this.failed).join(', ')})`));
      }
    });
    return ws as unknown as FrameSocket;
  }

  private heard(e: GameEvent): void {
    const socket = this.socket;
    if (e.type === 'room.state' && socket && !socket.resumed) {
      socket.resumed = true;
      this.resumed = true;
      clearTimeout(this.resumeTimer);
      this.resumeTimer = undefined;
      this.o.onResume?.({
        room: this.o.room,
        seat: this.o.seat,
        at: epochMs(),
        ...(socket.servedBy ? { servedBy: socket.servedBy } : {}),
        ...(this.after !== undefined ? { after: this.after } : {}),
        tries: this.tries,
        failed: this.failed,
      });
      this.tries = 0;
      this.failed = {};
    }
    this.o.onEvent?.(e);
    this.changed();
  }

  private statusChanged(s: ConnectionStatus): void {
    if (s.state !== 'reconnecting' && s.state !== 'ended') return;
    const wasIn = this.socket?.resumed === true;
    if (wasIn) {
      this.socket = undefined;
      if (!this.closedByUs && !this.endedWith && s.closeCode !== undefined) this.o.onDrop?.(s.closeCode);
      if (s.state === 'reconnecting') {
        this.after = s.closeCode;
        this.startResumeClock();
      }
    }
    if (s.state === 'ended') this.end(`closed ${s.closeCode}`);
    this.changed();
  }

  /** Makes a seat that has no socket in its room for `resumeTimeoutMs` give up. */
  private startResumeClock(): void {
    clearTimeout(this.resumeTimer);
    const within = this.o.resumeTimeoutMs;
    const first = this.after === undefined;
    this.resumeTimer = setTimeout(
      () => this.end(first ? `could not get in within ${within} ms` : `could not get back in within ${within} ms`),
      within,
    );
  }

  private end(why: string): void {
    if (this.endedWith) return;
    this.endedWith = why;
    clearTimeout(this.resumeTimer);
    // A run's signal outlives its thousands of seats, so each seat lets go of it when it ends.
    this.o.signal?.removeEventListener('abort', this.onAbort);
    if (this.client.status.state !== 'ended') this.client.close();
    this.changed();
  }

  private changed(): void {
    for (const w of [...this.watchers]) w();
  }

  /** The backoff: exponential from `initialMs`, capped at `maxMs`, with jitter between half and the full value. */
  private delay(attempt: number): number {
    const full = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.min(attempt, 20));
    return full / 2 + (full / 2) * this.random();
  }
}
