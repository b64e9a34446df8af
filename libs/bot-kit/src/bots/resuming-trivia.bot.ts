import { GameEvent } from '../seat-client';
import { epochMs, RecordSink, RecordTags } from './command-record';
import { HUMAN_PAUSE, HumanPause, pauseMs, sleep } from './human-pause';
import { FailoverSeat, SEAT_BACKOFF, SeatBackoff, SeatCommandOutcome, SeatResume } from './failover-seat';
import { benchRoomOpening } from './trivia-room.bot';

export interface ResumingTriviaRoomOptions {
  /** The proxy in front of the instances. Every call and socket goes through it. */
  readonly baseUrl: string;
  readonly seats: number;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly pause?: HumanPause;
  readonly commandTimeoutMs?: number;
  readonly backoff?: SeatBackoff;
  /** A seat (or an HTTP call) that cannot get through for this long gives up. Default: 60 s. */
  readonly resumeTimeoutMs?: number;
  readonly record?: RecordSink;
  readonly tags?: RecordTags;
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  /** Called once the room is open and its seats have joined, with its ids, for the accounting against the database. */
  readonly onRoom?: (room: ResumingRoom) => void;
  readonly onCommand?: (outcome: SeatCommandOutcome) => void;
  readonly onResume?: (resume: SeatResume) => void;
}

export interface ResumingRoom {
  readonly code: string;
  readonly roomId: string;
  /** Maps each seat tag (`p1`, ...) to the player's id. */
  readonly players: Readonly<Record<string, string>>;
}

export interface ResumingRoomReport {
  readonly room?: string;
  /** Whether `room.start` was acknowledged. */
  readonly started: boolean;
  /** Whether some seat saw the game finish (`game.finished`, or a `room.state` in phase finished). */
  readonly finished: boolean;
  readonly error?: string;
  readonly aborted: boolean;
}

/** The commands whose 200 reply means there is a row in PostgreSQL (PROTOCOL.md section 5). */
export const DURABLE_COMMANDS: ReadonlySet<string> = new Set(['room.start', 'room.answer', 'room.rematch', 'room.leave']);

/**
 * One trivia room played by bots that outlive the instance serving it. It is like
 * `playTriviaRoom`, but every seat is a `FailoverSeat`, which reconnects through the proxy with
 * the token it has and resends an unanswered command under its id. Each player follows the room's
 * state rather than a script of events, since a socket that comes back finds the game wherever it
 * got to (a deadline that passed meanwhile has taken effect). Each seat pings as soon as it is
 * back, so that the first command a moved room serves is not held back by a bot's pause. The room
 * plays one game; then every player votes no on the rematch and leaves, and the host closes the
 * room.
 */
export async function playResumingTriviaRoom(o: ResumingTriviaRoomOptions): Promise<ResumingRoomReport> {
  const random = o.random ?? Math.random;
  const pause = o.pause ?? HUMAN_PAUSE;
  const commandTimeoutMs = o.commandTimeoutMs ?? 10_000;
  const resumeTimeoutMs = o.resumeTimeoutMs ?? 60_000;
  // The longest a seat waits for the game to move on: a question and its reveal, plus a failover.
  const stepTimeoutMs = (o.secondsPerQuestion + o.revealSeconds) * 1000 + commandTimeoutMs + resumeTimeoutMs;
  const http = new RetryingHttp(o.baseUrl, commandTimeoutMs, resumeTimeoutMs, o.backoff ?? SEAT_BACKOFF, random, o.record, o.signal);
  const seats: FailoverSeat[] = [];
  let code: string | undefined;
  let hostToken: string | undefined;
  let started = false;
  let finished = false;
  let closedByUs = false;

  try {
    const created = await http.call<{ roomId: string; code: string; hostToken: string }>(
      'POST',
      '/api/rooms',
      'http POST /api/rooms',
      { ...o.tags },
      benchRoomOpening(o),
    );
    if (created.status !== 201 || !created.body)
      throw new Error(`could not open a room: HTTP ${created.status ?? '-'} ${created.error ?? ''}`);
    code = created.body.code;
    hostToken = created.body.hostToken;
    const tags = { ...o.tags, room: code };
    const joined: { playerId: string; playerToken: string }[] = [];
    for (let i = 0; i < o.seats; i++) {
      const j = await http.call<{ playerId: string; playerToken: string }>(
        'POST',
        `/api/rooms/${code}/players`,
        'http POST /api/rooms/:code/players',
        tags,
        { name: `Bot ${i + 1}` },
      );
      if (j.status !== 201 || !j.body) throw new Error(`seat ${i + 1} could not join ${code}: HTTP ${j.status ?? '-'} ${j.error ?? ''}`);
      joined.push(j.body);
    }
    o.onRoom?.({ code, roomId: created.body.roomId, players: Object.fromEntries(joined.map((j, i) => [`p${i + 1}`, j.playerId])) });

    const seatOptions = (seat: string, token: string, onEvent: (e: GameEvent) => void) =>
      new FailoverSeat({
        baseUrl: o.baseUrl,
        token,
        room: code!,
        seat,
        commandTimeoutMs,
        backoff: o.backoff,
        resumeTimeoutMs,
        record: o.record,
        tags: o.tags,
        signal: o.signal,
        random,
        onEvent,
        onCommand: o.onCommand,
        onResume: (r) => {
          o.onResume?.(r);
          // Do not await the ping, so the seat's own flow goes on. Its outcome is reported like any other.
          void seatsBySeat.get(seat)?.command('ping', {}, `${seat}-ping-${++pings}`);
        },
      });
    const seatsBySeat = new Map<string, FailoverSeat>();
    let pings = 0;

    // What the host sees of the seats. The host starts only once every seat is connected.
    const connected = new Map<string, boolean>();
    const host = seatOptions('host', hostToken, (e) => {
      if (e.type === 'room.state') for (const p of e.data.players ?? []) connected.set(p.id, !!p.connected);
      else if (e.type === 'player.presence') connected.set(e.data.playerId, !!e.data.connected);
      else if (e.type === 'player.joined') connected.set(e.data.player.id, !!e.data.player.connected);
      if (e.type === 'game.finished' || (e.type === 'room.state' && e.data.phase === 'finished')) finished = true;
    });
    seatsBySeat.set('host', host);
    seats.push(host);
    await host.open();
    const players = joined.map((j, i) => new PlayerView(`p${i + 1}`, j.playerId));
    for (const view of players) {
      const seat = seatOptions(view.seat, joined[players.indexOf(view)].playerToken, (e) => {
        view.see(e);
        if (view.finished) finished = true;
      });
      seatsBySeat.set(view.seat, seat);
      seats.push(seat);
      await seat.open();
    }
    const everySeatIn = () => joined.every((j) => connected.get(j.playerId) === true);
    await host.until(everySeatIn, 'every seat connected', stepTimeoutMs);
    const start = await host.command('room.start', {}, 'host-start');
    if (start.status !== 200) throw new Error(`room.start answered ${start.status ?? start.error}`);
    started = true;

    await Promise.all(players.map((view, i) => playSeat(view, seats[i + 1])));

    // Every player has left, so the host closes the room (its socket then closes with 4004).
    closedByUs = true;
    await http.call('DELETE', `/api/rooms/${code}`, 'http DELETE /api/rooms/:code', tags, undefined, {
      authorization: `Bearer ${hostToken}`,
    });
    return { room: code, started, finished, aborted: false };
  } catch (err) {
    const aborted = !!o.signal?.aborted;
    return { room: code, started, finished, aborted, ...(aborted ? {} : { error: err instanceof Error ? err.message : String(err) }) };
  } finally {
    for (const s of seats) s.close();
    if (code && hostToken && !closedByUs && !o.signal?.aborted) {
      await http.call('DELETE', `/api/rooms/${code}`, 'cleanup', {}, undefined, { authorization: `Bearer ${hostToken}` }, false);
    }
  }

  /** A player answers each question it finds open, after a pause, then votes no and leaves. */
  async function playSeat(view: PlayerView, seat: FailoverSeat): Promise<void> {
    for (;;) {
      await seat.until(() => view.finished || view.next() !== undefined, `question or the end of the game`, stepTimeoutMs);
      if (view.finished) break;
      const q = view.next()!;
      view.handled.add(q);
      await sleep(pauseMs(pause, random), o.signal);
      if (o.signal?.aborted) throw new Error('aborted');
      // Use one id per question, so that however often it is sent, the server records it once.
      await seat.command('room.answer', { question: q, choice: Math.floor(random() * view.choices) }, `${view.seat}-q${q}`);
    }
    await seat.command('room.rematch', { vote: false }, `${view.seat}-vote`);
    const left = await seat.command('room.leave', {}, `${view.seat}-leave`);
    if (left.status !== 200) throw new Error(`${view.seat} could not leave: ${left.status ?? left.error}`);
    // The server closes the seat's socket with 4003 after the reply, and the seat ends there.
    await seat.until(() => seat.ended !== undefined, 'the seat released', stepTimeoutMs).catch(() => seat.close());
  }
}

/** What one player knows of the game, from its own events, whichever socket brought them. */
class PlayerView {
  phase?: string;
  open?: number;
  choices = 4;
  finished = false;
  /** Questions this seat has answered or decided not to answer (each answer is sent under one id). */
  readonly handled = new Set<number>();

  constructor(
    readonly seat: string,
    readonly playerId: string,
  ) {}

  see(e: GameEvent): void {
    if (e.type === 'room.state') {
      this.phase = e.data.phase;
      const q = e.data.question as { index: number; choices: unknown[] } | undefined;
      this.open = this.phase === 'question' && q ? q.index : undefined;
      if (q && Array.isArray(q.choices)) this.choices = q.choices.length;
      // The answer was committed before the socket went, so there is nothing to send (a resend in flight is a replay).
      const own = e.data.you?.answer as { question: number } | undefined;
      if (own) this.handled.add(own.question);
      if (this.phase === 'finished') this.finished = true;
    } else if (e.type === 'question.open') {
      this.phase = 'question';
      this.open = e.data.index;
      if (Array.isArray(e.data.choices)) this.choices = e.data.choices.length;
    } else if (e.type === 'question.closed') {
      if (e.data.index === this.open) this.open = undefined;
      this.phase = 'reveal';
    } else if (e.type === 'game.finished' || e.type === 'rematch.open') {
      this.phase = 'finished';
      this.open = undefined;
      this.finished = true;
    }
  }

  /** The open question this seat has yet to answer. */
  next(): number | undefined {
    return this.open !== undefined && !this.handled.has(this.open) ? this.open : undefined;
  }
}

/**
 * Makes the bots' HTTP calls through the proxy, and retries them while an instance is down: on
 * 502, 503 or 504, or on no response. A retry waits for `Retry-After` when the server gives one (a
 * room served elsewhere says 1 s), and otherwise backs off. Each attempt is recorded like
 * `timedHttp`'s.
 */
class RetryingHttp {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly giveUpMs: number,
    private readonly backoff: SeatBackoff,
    private readonly random: () => number,
    private readonly record?: RecordSink,
    private readonly signal?: AbortSignal,
  ) {}

  async call<T = any>(
    method: string,
    path: string,
    type: string,
    tags: RecordTags,
    body?: unknown,
    headers: Record<string, string> = {},
    recorded = true,
  ): Promise<{ status: number | null; body?: T; error?: string }> {
    const since = performance.now();
    for (let attempt = 0; ; attempt++) {
      const sentAt = epochMs();
      const started = performance.now();
      let result: { status: number | null; body?: T; error?: string; retryAfterMs?: number; servedBy?: string };
      try {
        const res = await fetch(this.baseUrl + path, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const text = await res.text();
        let parsed: T | undefined;
        try {
          parsed = text ? (JSON.parse(text) as T) : undefined;
        } catch {
          parsed = undefined;
        }
        const retryAfter = Number(res.headers.get('retry-after'));
        const code = (parsed as { code?: string } | undefined)?.code;
        result = {
          status: res.status,
          body: parsed,
          ...(res.status >= 300 && code ? { error: code } : {}),
          ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
          servedBy: res.headers.get('x-served-by') ?? undefined,
        };
      } catch (err) {
        result = { status: null, error: err instanceof Error ? err.message : String(err) };
      }
      if (recorded) {
        this.record?.({
          type,
          sentAt,
          ms: performance.now() - started,
          status: result.status,
          timedOut: result.error === 'The operation was aborted due to timeout',
          ...(result.error ? { error: result.error } : {}),
          ...(result.servedBy ? { servedBy: result.servedBy } : {}),
          ...(attempt > 0 ? { retry: attempt } : {}),
          ...tags,
        });
      }
      const retriable = result.status === null || result.status === 502 || result.status === 503 || result.status === 504;
      if (!retriable || this.signal?.aborted || performance.now() - since > this.giveUpMs) return result;
      const full = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** Math.min(attempt, 20));
      await sleep(result.retryAfterMs ?? full / 2 + (full / 2) * this.random(), this.signal);
    }
  }
}
