import { GameEvent, UpgradeRefused } from '../game-client';
import { BotSocket, CommandResult } from './bot-socket';
import { epochMs, RecordSink, RecordTags } from './command-record';
import { sleep } from './human-pause';

/** Backoff between reconnects and between retries of a refused (503) command. */
export interface SeatBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

// ~100 ms first, doubling, capped at 2 s: a moved room is back within a lease (6 s) or so, and
// a few hundred seats must not hammer the proxy while it is not.
export const SEAT_BACKOFF: SeatBackoff = { initialMs: 100, maxMs: 2000 };

// The seat or the room is gone (4003, 4004), the token is refused (4001), or the frame would be
// refused again (1003, 1009): reconnecting cannot help. Anything else (1006 from a killed
// instance, 1012 from a room that moved, 1001 from a drain) is worth another socket.
const FINAL_CLOSES: ReadonlySet<number> = new Set([4001, 4003, 4004, 1003, 1009]);

// A command is sent at most this many times: far more than a failover needs, and a bound.
const MAX_SENDS = 40;

/** What came of one command, over however many sockets and sends it took. */
export interface SeatCommandOutcome {
  readonly room: string;
  readonly seat: string;
  readonly type: string;
  readonly id: string;
  /** The final reply's status; null when the seat ended (or gave up) before one came. */
  readonly status: number | null;
  readonly error?: string;
  /** Frames sent under this id. */
  readonly sends: number;
  /** Replies 503 or 429 before the final one (nothing was recorded; retried under the same id). */
  readonly busy: number;
  /** Sends that got no reply: the socket closed under it, or it timed out. */
  readonly unanswered: number;
  /** The instance whose socket carried the final reply (the proxy's `X-Served-By`). */
  readonly servedBy?: string;
  /** Epoch ms: the first send, and the final reply. */
  readonly firstSentAt: number;
  readonly repliedAt?: number;
}

/** A seat's socket back in its room: its first `room.state` arrived. */
export interface SeatResume {
  readonly room: string;
  readonly seat: string;
  /** Epoch ms of the `room.state`. */
  readonly at: number;
  readonly servedBy?: string;
  /** The close that made it reconnect; absent for the first socket. */
  readonly after?: number;
  /** Sockets tried before this one got in. */
  readonly tries: number;
  /** How those tries failed: `upgrade 503` (the proxy had no live instance for it), `close 1012` (accepted, but the room was still another instance's), `error`... */
  readonly failed: Readonly<Record<string, number>>;
}

export interface ResumingSeatOptions {
  readonly baseUrl: string;
  readonly token: string;
  /** The room's code: `room=` in the socket URL, and the tag of every record and outcome. */
  readonly room: string;
  /** `host`, `p1`, `p2`...: the records' `seat` tag. */
  readonly seat: string;
  readonly commandTimeoutMs: number;
  readonly backoff?: SeatBackoff;
  /** A seat that cannot get back in for this long gives up (ends). */
  readonly resumeTimeoutMs: number;
  /**
   * Sockets tried for the seat's first way in before it gives up (ends); default: as many as
   * `resumeTimeoutMs` allows. 1 makes a refused first socket final, as new work refused is.
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
  /** A socket of this seat was closed, by the server or the network, not by the bot: its close code. */
  readonly onDrop?: (code: number) => void;
}

/**
 * One seat's place in a room that survives its instance: a socket through the proxy with the
 * token the seat has, opened again with backoff after any close that is not final, and commands
 * that got no reply (or a 503) sent again under the same id, which the server replays if it had
 * committed them (PROTOCOL.md sections 3 and 5).
 */
export class ResumingSeat {
  private socket?: BotSocket;
  private reconnecting?: Promise<BotSocket | undefined>;
  private endedWith?: string;
  private closedByUs = false;
  private readonly watchers = new Set<() => void>();
  private readonly backoff: SeatBackoff;
  private readonly random: () => number;
  private readonly onAbort = () => this.end('aborted');

  constructor(private readonly o: ResumingSeatOptions) {
    this.backoff = o.backoff ?? SEAT_BACKOFF;
    this.random = o.random ?? Math.random;
    o.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Why the seat is over (a final close, given up, aborted), or undefined while it plays. */
  get ended(): string | undefined {
    return this.endedWith;
  }

  /** Opens the first socket; resolves once its `room.state` is in, rejects if the seat ends first. */
  async open(): Promise<void> {
    const socket = await this.live();
    if (!socket) throw new Error(`seat ${this.o.seat} of ${this.o.room} could not get in: ${this.endedWith}`);
  }

  /**
   * Sends a command under `id` until it gets a reply that is not 503/429, over as many sockets as
   * that takes. Never rejects: an outcome with status null says the seat ended first.
   */
  async command(type: string, data: unknown, id: string): Promise<SeatCommandOutcome> {
    let sends = 0;
    let busy = 0;
    let unanswered = 0;
    let firstSentAt: number | undefined;
    const outcome = (r: CommandResult | undefined, servedBy: string | undefined, error?: string): SeatCommandOutcome => {
      const done: SeatCommandOutcome = {
        room: this.o.room,
        seat: this.o.seat,
        type,
        id,
        status: r?.status ?? null,
        ...((r?.error ?? error) ? { error: r?.error ?? error } : {}),
        sends,
        busy,
        unanswered,
        ...(servedBy ? { servedBy } : {}),
        firstSentAt: firstSentAt ?? epochMs(),
        ...(r?.repliedAt ? { repliedAt: r.repliedAt } : {}),
      };
      this.o.onCommand?.(done);
      return done;
    };
    while (sends < MAX_SENDS) {
      const socket = await this.live();
      if (!socket) return outcome(undefined, undefined, `seat ended: ${this.endedWith}`);
      sends++;
      const r = await socket.command(type, data, id);
      firstSentAt ??= r.sentAt;
      if (r.status === 503 || r.status === 429) {
        // Nothing was recorded: the same id is tried afresh after a pause.
        await sleep(this.delay(busy++), this.o.signal);
        continue;
      }
      if (r.status === null) {
        unanswered++;
        // A reply that never came on a socket still open: take the socket for dead (a killed
        // instance's TCP can linger) and resend on the next one, where a committed id is replayed.
        if (r.timedOut && socket.isOpen) socket.terminate();
        continue;
      }
      return outcome(r, socket.servedBy);
    }
    return outcome(undefined, undefined, `no reply after ${sends} sends`);
  }

  /**
   * Sends a command once under `id`, on the open socket or the next one, and resolves with what
   * came of that one send: no retry, whatever the reply. Undefined when the seat ended first.
   * `tags` go on this command's record only.
   */
  async commandOnce(type: string, data: unknown, id: string, tags?: RecordTags): Promise<CommandResult | undefined> {
    const socket = await this.live();
    return socket?.command(type, data, id, tags);
  }

  /** Resolves once `test()` holds, checked after every event and every change of socket. */
  until(test: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (test()) finish();
        else if (this.endedWith) finish(new Error(`seat ${this.o.seat} of ${this.o.room} ended (${this.endedWith}) before ${what}`));
      };
      const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${this.o.room}, seat ${this.o.seat})`)), timeoutMs);
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

  /** Closes from this side, for good: no reconnect. */
  close(): void {
    this.closedByUs = true;
    this.end('closed by the bot');
  }

  /** The open socket, or the next one (reconnecting if none is under way); undefined once ended. */
  private live(): Promise<BotSocket | undefined> {
    if (this.endedWith) return Promise.resolve(undefined);
    const socket = this.socket;
    if (socket?.isOpen) return Promise.resolve(socket);
    // Closing under a command whose reply it took with it: its close is handled first (onDrop
    // reconnects, knowing the code), then the command goes on the next socket.
    if (socket) return socket.closed.then(() => this.live());
    this.reconnecting ??= this.reconnect(undefined).finally(() => (this.reconnecting = undefined));
    return this.reconnecting;
  }

  private async reconnect(after: number | undefined): Promise<BotSocket | undefined> {
    const since = performance.now();
    const failed: Record<string, number> = {};
    const count = (why: string) => (failed[why] = (failed[why] ?? 0) + 1);
    for (let tries = 0; ; tries++) {
      if (this.endedWith) return undefined;
      if (tries > 0) {
        if (after === undefined && this.o.firstOpenTries !== undefined && tries >= this.o.firstOpenTries) {
          this.end(`could not get in (${Object.keys(failed).join(', ')})`);
          return undefined;
        }
        if (performance.now() - since > this.o.resumeTimeoutMs) {
          this.end(`could not get back in within ${this.o.resumeTimeoutMs} ms`);
          return undefined;
        }
        await sleep(this.delay(tries - 1), this.o.signal);
        if (this.endedWith) return undefined;
      }
      // A socket opened again after a close is tagged as such: the seat's first way in is not.
      const tags: Record<string, string | number | boolean | undefined> = { ...this.o.tags, room: this.o.room, seat: this.o.seat, ...(after !== undefined ? { reconnect: true } : {}) };
      let socket: BotSocket;
      try {
        socket = await BotSocket.connect(this.o.baseUrl, this.o.token, {
          room: this.o.room,
          commandTimeoutMs: this.o.commandTimeoutMs,
          record: this.o.record,
          tags,
          onEvent: (e) => this.onEvent(e),
        });
      } catch (err) {
        // 401: this token will never get in. Anything else (the proxy's 503 while it still
        // tries the dead instance, a refused connect) is tried again.
        if (err instanceof UpgradeRefused && err.status === 401) {
          this.end('token refused (401)');
          return undefined;
        }
        count(err instanceof UpgradeRefused ? `upgrade ${err.status}` : 'error');
        continue;
      }
      // Every later record of this socket names the instance that serves it.
      if (socket.servedBy) tags.servedBy = socket.servedBy;
      const first = await socket.nextEvent('room.state', () => true, this.o.commandTimeoutMs).catch(() => undefined);
      if (!first) {
        // Closed before its first frame (1012: the room is still another's) or silent: next.
        socket.terminate();
        const { code } = await socket.closed;
        if (FINAL_CLOSES.has(code)) {
          this.end(`closed ${code}`);
          return undefined;
        }
        count(`close ${code}`);
        continue;
      }
      if (this.endedWith) {
        socket.close();
        return undefined;
      }
      this.socket = socket;
      void socket.closed.then(({ code }) => this.onDrop(socket, code));
      this.o.onResume?.({ room: this.o.room, seat: this.o.seat, at: epochMs(), ...(socket.servedBy ? { servedBy: socket.servedBy } : {}), ...(after !== undefined ? { after } : {}), tries, failed });
      this.changed();
      return socket;
    }
  }

  private onDrop(socket: BotSocket, code: number): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    if (this.closedByUs || this.endedWith) return;
    this.o.onDrop?.(code);
    if (FINAL_CLOSES.has(code)) {
      this.end(`closed ${code}`);
      return;
    }
    // Back in at once, not at the next command: the seat's view of the room must catch up.
    this.reconnecting ??= this.reconnect(code).finally(() => (this.reconnecting = undefined));
    this.changed();
  }

  private onEvent(e: GameEvent): void {
    this.o.onEvent?.(e);
    this.changed();
  }

  private end(why: string): void {
    if (this.endedWith) return;
    this.endedWith = why;
    // A run's signal outlives its thousands of seats: each lets go of it when it ends.
    this.o.signal?.removeEventListener('abort', this.onAbort);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
    this.changed();
  }

  private changed(): void {
    for (const w of [...this.watchers]) w();
  }

  /** Exponential from `initialMs`, capped at `maxMs`, with jitter in [half, full]. */
  private delay(attempt: number): number {
    const full = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.min(attempt, 20));
    return full / 2 + (full / 2) * this.random();
  }
}
