import { benchRoomOpening, epochMs, GameEvent, HumanPause, pauseMs, RecordSink, FailoverSeat, sleep, timedHttp } from '@app/bot-kit';
import { AnswerOutcome, answersCounted, QuestionClose } from './answer-truth';
import type { BotSettings } from './run';

/** A seat's socket that the server (or the network) closed under it. */
export interface SeatDrop {
  readonly room: string;
  readonly seat: string;
  readonly code: number;
  /** Epoch ms. */
  readonly at: number;
}

/**
 * What a run keeps of its watched rooms: every answer with its reply (and its resend's reply), every
 * question's close as the sockets saw it, the sockets the server closed, and the seats that came
 * back. The truth accounting (answer-truth.ts) reads it at the end.
 */
export class PlayLedger {
  readonly answers: AnswerOutcome[] = [];
  readonly drops: SeatDrop[] = [];
  /** Seats that got back in after a drop: one per socket that got its first `room.state` again. */
  readonly reconnects: SeatDrop[] = [];
  /** Each room's cohort (`playing`, `new`, `probe`), by code. */
  readonly cohorts = new Map<string, string>();
  /** Refused answers waiting for their question to close before their resend. */
  pendingResends = 0;
  private readonly closeByKey = new Map<string, QuestionClose>();

  /** Records a question's counts as one socket of the room saw them. Another socket's counts are compared with them. */
  seeClose(room: string, game: number, question: number, counted: number | undefined): void {
    if (counted === undefined) return;
    const key = `${room}\u0000${game}\u0000${question}`;
    const seen = this.closeByKey.get(key);
    if (!seen) this.closeByKey.set(key, { room, game, question, counted, disagreed: false });
    else if (seen.counted !== counted && !seen.disagreed) this.closeByKey.set(key, { ...seen, disagreed: true });
  }

  get closes(): QuestionClose[] {
    return [...this.closeByKey.values()];
  }
}

/**
 * One room's game as the room's sockets see it. A room's seats are all in this process, so a close
 * that one seat's socket sees is known to the others, one of which may be reconnecting and miss it.
 * Where the room is (a question open, a game over) is the host's socket's word alone (`see`).
 */
class RoomWatch {
  /** The game the host last started. It is set before the host sends `room.start`. */
  game = 0;
  phase?: string;
  /** The current game's open question. */
  open?: number;
  choices = 4;
  /** The highest question index of the current game known to be closed. */
  private closedThrough = -1;
  /** The last game known to be over. */
  private finishedGame = 0;
  /** Whether the current game was seen under way. A lobby or a finished room after that means the game is over. */
  private underWay = false;

  constructor(
    private readonly room: string,
    private readonly ledger: PlayLedger,
  ) {}

  startGame(game: number): void {
    this.game = game;
    this.open = undefined;
    this.closedThrough = -1;
    this.underWay = false;
  }

  /**
   * Takes one event from one of the room's sockets. Each socket's events come in order, but two
   * sockets' do not come in order with each other: one socket may still deliver the last game's
   * end after another has delivered the new game's first question. So only the host's socket says
   * where the room is (its phase, and that a game is over); every socket's closes go to the ledger.
   */
  see(e: GameEvent, fromHost: boolean): void {
    const d = e.data ?? {};
    if (e.type === 'question.closed') this.questionClosed(d.index, d.counts);
    else if (e.type === 'room.state' && d.phase === 'reveal' && d.reveal) this.questionClosed(d.reveal.index, d.reveal.counts);
    if (!fromHost) return;
    if (e.type === 'room.state') {
      this.phase = d.phase;
      const q = d.question as { index: number; choices?: unknown[] } | undefined;
      this.open = d.phase === 'question' && q ? q.index : undefined;
      if (q) this.questionOpen(q.index, q.choices);
      if ((d.phase === 'finished' || d.phase === 'lobby') && this.underWay) this.finishedGame = this.game;
    } else if (e.type === 'question.open') {
      this.phase = 'question';
      this.open = d.index;
      this.questionOpen(d.index, d.choices);
    } else if (e.type === 'question.closed') {
      this.phase = 'reveal';
      if (this.open === d.index) this.open = undefined;
    } else if (e.type === 'game.finished' || e.type === 'rematch.open') {
      this.phase = 'finished';
      this.open = undefined;
      this.finishedGame = this.game;
    }
  }

  /** Tells whether the game is over, which means every one of its questions is closed. */
  over(game: number): boolean {
    return this.finishedGame >= game || this.game > game;
  }

  isClosed(game: number, question: number): boolean {
    return this.over(game) || (this.game === game && this.closedThrough >= question);
  }

  private questionOpen(index: number, choices: unknown): void {
    this.underWay = true;
    this.closedThrough = Math.max(this.closedThrough, index - 1);
    if (Array.isArray(choices) && choices.length > 0) this.choices = choices.length;
  }

  private questionClosed(index: number, counts: unknown): void {
    this.underWay = true;
    this.closedThrough = Math.max(this.closedThrough, index);
    this.ledger.seeClose(this.room, this.game, index, answersCounted(counts));
  }
}

export interface WatchedRoomOptions {
  readonly baseUrl: string;
  /** How many players are in the room, not counting the host. */
  readonly seats: number;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly pause: HumanPause;
  readonly commandTimeoutMs: number;
  readonly ledger: PlayLedger;
  /**
   * `playing` (rooms already playing), `new` (offered during an overload) or `probe`. It goes on
   * every record and into the ledger.
   */
  readonly cohort: string;
  readonly record?: RecordSink;
  readonly random: () => number;
  readonly signal?: AbortSignal;
  /** A seat that cannot get back in for this long gives up. The default is 60 s. */
  readonly resumeTimeoutMs?: number;
  /** Awaited once every seat is in, before the first game starts, so that rooms can start together. */
  readonly startGate?: Promise<void>;
  /** Asked after each game. True plays a rematch in the same room. By default the room plays one game. */
  readonly anotherGame?: (gamesPlayed: number) => boolean;
  /** Called when every seat is in. */
  readonly onSeated?: (room: string) => void;
  /** Called just before each first send of an answer. */
  readonly onAnswerSending?: (game: number, question: number) => void;
}

/** Builds a watched room's options from the run's bot settings and what the mode adds (ledger, cohort, hooks). */
export function watchedRoomOptions(
  bots: BotSettings,
  rest: Omit<WatchedRoomOptions, 'seats' | 'questionCount' | 'secondsPerQuestion' | 'revealSeconds' | 'pause' | 'commandTimeoutMs'> & {
    seats?: number;
  },
): WatchedRoomOptions {
  return {
    seats: bots.seats,
    questionCount: bots.questions,
    secondsPerQuestion: bots.secondsPerQuestion,
    revealSeconds: bots.revealSeconds,
    pause: bots.pause,
    commandTimeoutMs: bots.commandTimeoutMs,
    ...rest,
  };
}

export interface WatchedRoomReport {
  readonly room?: string;
  /** The step of the set-up that was refused (or failed). The room never played. */
  readonly refusedAt?: 'open' | 'join' | 'socket';
  readonly seated: boolean;
  /** How many games were started. */
  readonly games: number;
  readonly error?: string;
  readonly aborted: boolean;
}

/** A set-up that stopped at a refused step. If the room was opened, it must be closed again. */
interface RefusedSetUp {
  readonly refusedAt: 'open' | 'join' | 'socket';
  readonly room?: string;
  readonly hostToken?: string;
  readonly error: string;
}

/** A room's set-up once every seat is in: its code, its host token, and one seat per socket. */
interface SetUpRoom {
  readonly code: string;
  readonly hostToken: string;
  readonly host: FailoverSeat;
  readonly players: { readonly name: string; readonly seat: FailoverSeat }[];
  readonly watch: RoomWatch;
  /** Whether the host sees every player connected. */
  readonly everySeatIn: () => boolean;
  /**
   * Says the seats are about to leave. The closes that follow (4003, 4004) are then the seats' own
   * doing, not the server's.
   */
  readonly leaving: () => void;
}

/**
 * Opens a room the way new work is opened. Each step is tried once (the room, each join, each
 * seat's first socket), and every try is recorded with its status, `Retry-After` and time. A refused
 * step ends the set-up, and what was made is closed again. After that, the seats reconnect after any
 * close that is not final, as a page does, and every drop and return is kept in the ledger.
 */
export async function setUpWatchedRoom(o: WatchedRoomOptions, onSeats: (seats: FailoverSeat[]) => void): Promise<SetUpRoom | RefusedSetUp> {
  const tags = { cohort: o.cohort };
  const created = await timedHttp<{ code: string; hostToken: string }>(o.baseUrl, 'POST', '/api/rooms', {
    type: 'http POST /api/rooms',
    body: benchRoomOpening(o),
    timeoutMs: o.commandTimeoutMs,
    record: o.record,
    tags,
  });
  if (created.status !== 201 || !created.body)
    return { refusedAt: 'open', error: `could not open a room: HTTP ${created.status ?? '-'} ${created.error ?? ''}` };
  const { code, hostToken } = created.body;
  o.ledger.cohorts.set(code, o.cohort);
  const roomTags = { ...tags, room: code };
  const joined: { playerId: string; playerToken: string }[] = [];
  for (let i = 0; i < o.seats; i++) {
    const j = await timedHttp<{ playerId: string; playerToken: string }>(o.baseUrl, 'POST', `/api/rooms/${code}/players`, {
      type: 'http POST /api/rooms/:code/players',
      body: { name: `Bot ${i + 1}` },
      timeoutMs: o.commandTimeoutMs,
      record: o.record,
      tags: roomTags,
    });
    if (j.status !== 201 || !j.body)
      return {
        refusedAt: 'join',
        room: code,
        hostToken,
        error: `seat ${i + 1} could not join ${code}: HTTP ${j.status ?? '-'} ${j.error ?? ''}`,
      };
    joined.push(j.body);
  }
  const watch = new RoomWatch(code, o.ledger);
  let leaving = false;
  // Track what the host sees of the seats, because a game starts only once every seat is connected.
  const connected = new Map<string, boolean>();
  const seeSeats = (e: GameEvent) => {
    if (e.type === 'room.state') for (const p of e.data.players ?? []) connected.set(p.id, !!p.connected);
    else if (e.type === 'player.presence') connected.set(e.data.playerId, !!e.data.connected);
    else if (e.type === 'player.joined') connected.set(e.data.player.id, !!e.data.player.connected);
  };
  const seat = (name: string, token: string, onEvent: (e: GameEvent) => void) =>
    new FailoverSeat({
      baseUrl: o.baseUrl,
      token,
      room: code,
      seat: name,
      commandTimeoutMs: o.commandTimeoutMs,
      resumeTimeoutMs: o.resumeTimeoutMs ?? 60_000,
      firstOpenTries: 1,
      record: o.record,
      tags,
      signal: o.signal,
      random: o.random,
      onEvent,
      // A seat that left is closed with 4003, and the host's socket is closed with 4004 after the room
      // is closed. Those closes are the bot's own doing, so they are not counted as drops.
      onDrop: (closeCode) =>
        (leaving && (closeCode === 4003 || closeCode === 4004)) ||
        o.ledger.drops.push({ room: code, seat: name, code: closeCode, at: epochMs() }),
      onResume: (r) => r.after !== undefined && o.ledger.reconnects.push({ room: code, seat: name, code: r.after, at: r.at }),
    });
  const host = seat('host', hostToken, (e) => (seeSeats(e), watch.see(e, true)));
  const players = joined.map((j, i) => ({ name: `p${i + 1}`, seat: seat(`p${i + 1}`, j.playerToken, (e) => watch.see(e, false)) }));
  onSeats([host, ...players.map((p) => p.seat)]);
  for (const s of [host, ...players.map((p) => p.seat)]) {
    try {
      await s.open();
    } catch (err) {
      return { refusedAt: 'socket', room: code, hostToken, error: err instanceof Error ? err.message : String(err) };
    }
  }
  return {
    code,
    hostToken,
    host,
    players,
    watch,
    everySeatIn: () => joined.every((j) => connected.get(j.playerId) === true),
    leaving: () => (leaving = true),
  };
}

/**
 * Plays one trivia room whose players are checked for the truth of what they are told. Each player
 * answers every question once, after a human pause, under an id of its own (`p1-g1-q3`). An answer
 * whose reply is not 200 is sent again under the same id once its question has closed, and
 * answer-truth.ts reads the two replies. Every socket the server closes is opened again, and the
 * player goes on from the room's state. After each game, the players vote yes on the rematch while
 * another game is wanted. Then they vote no and leave, and the host closes the room.
 */
export async function playWatchedRoom(o: WatchedRoomOptions): Promise<WatchedRoomReport> {
  const stepTimeoutMs = (o.secondsPerQuestion + o.revealSeconds) * 1000 + o.commandTimeoutMs + (o.resumeTimeoutMs ?? 60_000);
  let seats: FailoverSeat[] = [];
  let room: string | undefined;
  let hostToken: string | undefined;
  let seated = false;
  let games = 0;
  let closedByUs = false;
  try {
    const set = await setUpWatchedRoom(o, (s) => (seats = s));
    if ('refusedAt' in set) {
      room = set.room;
      hostToken = set.hostToken;
      return { room, refusedAt: set.refusedAt, seated, games, error: set.error, aborted: !!o.signal?.aborted };
    }
    room = set.code;
    hostToken = set.hostToken;
    const { host, players, watch } = set;
    await host.until(set.everySeatIn, 'every seat connected', stepTimeoutMs);
    seated = true;
    o.onSeated?.(room);
    await o.startGate;

    for (let game = 1; ; game++) {
      if (o.signal?.aborted) throw new Error('aborted');
      await host.until(set.everySeatIn, 'every seat connected', stepTimeoutMs);
      watch.startGame(game);
      // A refused start is tried again under its id, because nothing is being checked about it.
      const start = await host.command('room.start', {}, `host-start-g${game}`);
      if (start.status !== 200) throw new Error(`room.start answered ${start.status ?? start.error}`);
      games = game;
      await Promise.all(players.map((p) => answerEveryQuestion(o, set.code, watch, game, p.name, p.seat, stepTimeoutMs)));
      if (o.signal?.aborted || !o.anotherGame?.(game)) break;
      await Promise.all(players.map((p) => p.seat.command('room.rematch', { vote: true }, `${p.name}-g${game}-vote`)));
      await host.until(() => watch.phase === 'lobby', 'the rematch back in the lobby', stepTimeoutMs);
    }

    set.leaving();
    for (const p of players) {
      await p.seat.command('room.rematch', { vote: false }, `${p.name}-g${games}-vote`);
      await p.seat.command('room.leave', {}, `${p.name}-leave`);
    }
    closedByUs = true;
    await timedHttp(o.baseUrl, 'DELETE', `/api/rooms/${room}`, {
      type: 'http DELETE /api/rooms/:code',
      headers: { authorization: `Bearer ${hostToken}` },
      timeoutMs: o.commandTimeoutMs,
      record: o.record,
      tags: { cohort: o.cohort, room },
    });
    return { room, seated, games, aborted: false };
  } catch (err) {
    const aborted = !!o.signal?.aborted;
    return { room, seated, games, aborted, ...(aborted ? {} : { error: err instanceof Error ? err.message : String(err) }) };
  } finally {
    for (const s of seats) s.close();
    // A room that was given up on is closed, so that it does not linger until it expires. This close
    // is not timed or recorded.
    if (room && hostToken && !closedByUs && !o.signal?.aborted) {
      await timedHttp(o.baseUrl, 'DELETE', `/api/rooms/${room}`, {
        type: 'cleanup',
        headers: { authorization: `Bearer ${hostToken}` },
        timeoutMs: o.commandTimeoutMs,
      });
    }
  }
}

/**
 * Plays one player through one game. The player answers once each question it finds open, and
 * resends refused answers after their question closed.
 */
async function answerEveryQuestion(
  o: WatchedRoomOptions,
  room: string,
  watch: RoomWatch,
  game: number,
  name: string,
  seat: FailoverSeat,
  stepTimeoutMs: number,
): Promise<void> {
  const handled = new Set<number>();
  const resends: Promise<void>[] = [];
  const unanswered = () => (watch.open !== undefined && !handled.has(watch.open) ? watch.open : undefined);
  for (;;) {
    await seat.until(() => watch.over(game) || unanswered() !== undefined, 'the next question or the end of the game', stepTimeoutMs);
    if (watch.over(game)) break;
    const question = unanswered()!;
    handled.add(question);
    await sleep(pauseMs(o.pause, o.random), o.signal);
    if (o.signal?.aborted) throw new Error('aborted');
    const id = `${name}-g${game}-q${question}`;
    const data = { question, choice: Math.floor(o.random() * watch.choices) };
    o.onAnswerSending?.(game, question);
    const r = await seat.commandOnce('room.answer', data, id, { game, question });
    const answer: AnswerOutcome = r
      ? {
          room,
          seat: name,
          game,
          question,
          id,
          sentAt: r.sentAt,
          ms: r.ms,
          status: r.status,
          timedOut: r.timedOut,
          ...(r.error ? { error: r.error } : {}),
        }
      : {
          room,
          seat: name,
          game,
          question,
          id,
          sentAt: epochMs(),
          ms: 0,
          status: null,
          timedOut: false,
          error: `seat ended: ${seat.ended}`,
        };
    o.ledger.answers.push(answer);
    if (r && answer.status !== 200) resends.push(resendOnceClosed(o, watch, seat, answer, data, stepTimeoutMs));
  }
  await Promise.all(resends);
}

/**
 * Sends the same id again once its question is closed. The reply says whether the first send was
 * recorded.
 */
async function resendOnceClosed(
  o: WatchedRoomOptions,
  watch: RoomWatch,
  seat: FailoverSeat,
  answer: AnswerOutcome,
  data: unknown,
  stepTimeoutMs: number,
): Promise<void> {
  o.ledger.pendingResends++;
  try {
    await seat.until(() => watch.isClosed(answer.game, answer.question), `question ${answer.question} closed`, stepTimeoutMs);
    const r = await seat.commandOnce('room.answer', data, answer.id, { game: answer.game, question: answer.question, resend: true });
    if (r) answer.resend = { sentAt: r.sentAt, ms: r.ms, status: r.status, timedOut: r.timedOut, ...(r.error ? { error: r.error } : {}) };
  } catch {
    // The seat ended, or the question was never seen closed, so the answer stays "not resent".
  } finally {
    o.ledger.pendingResends--;
  }
}
