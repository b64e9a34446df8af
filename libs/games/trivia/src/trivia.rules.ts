import { RoomErrorCode } from '@app/protocol';
import { Actor, chain, Effect, RoomEvent, RuleContext, unchanged } from '@app/room-engine';
import { RoomCommand } from './trivia.commands';
import { drawQuestions } from './trivia.draw';
import { refuse, TriviaErrorCode } from './trivia.errors';
import { checkGiven, choicesOf, countsOf, earnsPoints, givenIn, givenOf, isRight, revealed } from './trivia.kinds';
import { rankStandings, pointsFor } from './trivia.scoring';
import { decideRematch } from './trivia.rematch';
import {
  Answer,
  ClosedAnswer,
  Game,
  GameSummary,
  Given,
  Outcome,
  Question,
  QuestionClosed,
  Seat,
  Standing,
  TriviaState,
} from './trivia.types';

// Trivia's rules are pure functions of (state, input, ctx). They read no clock, do no I/O, and use
// no randomness except ctx.random (for the question draw). `now` is a command's arrival or the
// moment a deadline was due, so that replaying the same inputs rebuilds the same room. States are
// plain JSON.

/** Decides a room command from a viewer that arrived at `ctx.now`. It throws RoomException for a refusal. */
export function decide(state: TriviaState, viewer: Actor, command: RoomCommand, ctx: RuleContext): Outcome {
  const now = ctx.now;
  switch (command.type) {
    case 'room.start':
      return start(state, now, ctx.random);
    case 'room.answer':
      return answer(state, seatOf(state, viewer), command.data.question, givenOf(command.data), now);
    case 'room.next':
      return moveOn(state, now, ctx.id);
    case 'room.rematch':
      return vote(state, seatOf(state, viewer), command.data.vote, now);
    case 'room.leave':
      return release(state, seatOf(state, viewer), 'left', now);
    case 'room.kick':
      return kick(state, command.data.playerId, now);
  }
}

/**
 * Seats a player who asks for a seat through the HTTP API. While a game runs, a room that takes late
 * players (the default) seats them too, and they play from the next question that opens.
 */
export function join(state: TriviaState, playerId: string, name: string): Outcome {
  if (state.phase === 'closed') refuse(RoomErrorCode.RoomClosed, 'the room is closed');
  const running = (state.phase === 'question' || state.phase === 'reveal') && state.game;
  if (running && state.settings.lateJoin === false)
    refuse(
      TriviaErrorCode.GameInProgress,
      'a game is in progress and this room takes nobody after the start; join when the room is back in the lobby',
    );
  if (!running && state.phase !== 'lobby')
    refuse(TriviaErrorCode.GameInProgress, 'a game is in progress; join when the room is back in the lobby');
  if (state.players.length >= state.settings.maxPlayers) {
    refuse(TriviaErrorCode.RoomFull, `the room is full (${state.settings.maxPlayers} players)`);
  }
  // Two players called "Sam" could not tell their scores apart (PROTOCOL.md section 12).
  if (state.players.some((p) => sameName(p.name, name)))
    refuse(TriviaErrorCode.NameTaken, `someone in the room is already called ${name}; pick another name`);
  const seat: Seat = { id: playerId, name, connected: false, score: 0, correct: 0, elapsedSum: 0 };
  const game = running ? { ...running, late: [...(running.late ?? []), { playerId, from: running.index + 1 }] } : state.game;
  return {
    state: { ...state, players: [...state.players, seat], ...(game ? { game } : {}) },
    events: [{ type: 'player.joined', data: { player: publicSeat(seat) } }],
    effects: [],
    reply: { playerId },
  };
}

function start(state: TriviaState, now: number, random: () => number): Outcome {
  if (state.phase !== 'lobby') refuse(TriviaErrorCode.WrongPhase, `the game can start only in the lobby (phase is ${state.phase})`);
  if (state.players.length === 0) refuse(TriviaErrorCode.NoPlayers, 'at least one player must join before the game starts');
  if (state.deck.length === 0) refuse(TriviaErrorCode.DeckNotFound, "the room's deck has no questions");
  const no = state.gamesPlayed + 1;
  const order = state.settings.order ?? 'shuffled';
  const questions = drawQuestions(state.deck, state.settings.questionCount, state.playedQuestionIds, random, order);
  return { ...beginGame(state, { id: `${state.roomId}:${no}`, no, questions, roster: state.players.map((p) => p.id) }, now), reply: {} };
}

/** Begins game number `no` with these questions. The first question opens at `now`. */
export function beginGame(
  state: TriviaState,
  begun: { id: string; no: number; questions: readonly Question[]; roster: readonly string[] },
  now: number,
): Outcome {
  const players = state.players.map((p) => ({ ...p, score: 0, correct: 0, elapsedSum: 0 }));
  const game: Game = {
    id: begun.id,
    no: begun.no,
    startedAt: now,
    questions: begun.questions,
    roster: begun.roster.filter((id) => players.some((p) => p.id === id)),
    index: 0,
    openedAt: now,
    closesAt: now + durationMs(state, begun.questions[0]),
    answers: [],
    closed: [],
  };
  const { standings: _standings, rematch: _rematch, ...rest } = state;
  const next: TriviaState = {
    ...rest,
    phase: 'question',
    players,
    game,
    gamesPlayed: begun.no,
    // This is a set, kept in the order the questions were first played, so its size is bounded by the
    // deck.
    playedQuestionIds: [...new Set([...state.playedQuestionIds, ...begun.questions.map((q) => q.id)])],
  };
  return { state: next, events: [questionOpen(next, now)], effects: [] };
}

function answer(state: TriviaState, seat: Seat, question: number, given: Given, now: number): Outcome {
  const game = state.game;
  // An answer that arrived after the deadline is late, even if the clock's signal is still queued.
  if (state.phase !== 'question' || !game || question !== game.index || now > game.closesAt) {
    refuse(TriviaErrorCode.QuestionClosed, `question ${question} is not open`);
  }
  if (!game.roster.includes(seat.id)) refuse(TriviaErrorCode.NotInGame, 'you are not playing in this game');
  if (answerOf(game, seat.id)) refuse(TriviaErrorCode.AlreadyAnswered, `you already answered question ${question}`);
  const q = game.questions[game.index];
  checkGiven(q, given, question);
  const duration = durationMs(state, q);
  const elapsedMs = Math.min(Math.max(now - game.openedAt, 0), duration);
  const correct = isRight(q, given);
  const record: Answer = {
    playerId: seat.id,
    question,
    ...given,
    elapsedMs,
    correct,
    points: correct && earnsPoints(q) ? pointsFor(elapsedMs, duration) : 0,
  };
  const answers = [...game.answers, record];
  const next: TriviaState = { ...state, game: { ...game, answers } };
  const progress: RoomEvent = {
    type: 'question.progress',
    data: { index: game.index, answered: answers.length, of: game.roster.length },
  };
  if (!everyoneAnswered(next)) return { state: next, events: [progress], effects: [], reply: { accepted: true } };
  const closed = closeQuestion(next, now);
  return { ...closed, events: [progress, ...closed.events], reply: { accepted: true } };
}

function vote(state: TriviaState, seat: Seat, yes: boolean, now: number): Outcome {
  const rematch = state.rematch;
  if (rematch?.decided) refuse(TriviaErrorCode.RematchClosed, 'the rematch is already decided');
  if (state.phase !== 'finished' || !rematch) refuse(TriviaErrorCode.WrongPhase, 'no rematch vote is open');
  if (!rematch.voters.includes(seat.id)) refuse(TriviaErrorCode.NotInGame, 'you did not play the last game');
  if (rematch.votes[seat.id] !== undefined) refuse(TriviaErrorCode.AlreadyVoted, 'you already voted');
  const votes = { ...rematch.votes, [seat.id]: yes };
  const next: TriviaState = { ...state, rematch: { ...rematch, votes } };
  return { ...(decideRematch(next, false, now) ?? unchanged(next)), reply: {} };
}

/**
 * Lets the host move a host-paced game on. During a question, the question closes now. During a
 * reveal, the next question opens, or the game finishes after the last question. A clock-paced room
 * refuses (409).
 */
function moveOn(state: TriviaState, now: number, newId: () => string): Outcome {
  if ((state.settings.pace ?? 'clock') !== 'host')
    refuse(TriviaErrorCode.ClockPaced, 'this room moves on by the clock; room.next is for a room opened with pace "host"');
  const game = state.game;
  if (state.phase === 'question' && game) return { ...closeQuestion(state, now), reply: {} };
  if (state.phase === 'reveal' && game) {
    const moved = game.index + 1 < game.questions.length ? openNextQuestion(state, now) : finishGame(state, now, newId());
    return { ...moved, reply: {} };
  }
  refuse(TriviaErrorCode.WrongPhase, `room.next moves a game on: there is none running (phase is ${state.phase})`);
}

function kick(state: TriviaState, playerId: string, now: number): Outcome {
  const seat = state.players.find((p) => p.id === playerId);
  if (!seat) refuse(TriviaErrorCode.PlayerNotFound, `no seated player has id ${playerId}`);
  return release(state, seat, 'kicked', now);
}

/** Removes the seat of a player who leaves or is kicked. The game or the rematch goes on without it. */
export function release(state: TriviaState, seat: Seat, reason: 'left' | 'kicked', now: number): Outcome {
  const players = state.players.filter((p) => p.id !== seat.id);
  let next: TriviaState = { ...state, players };
  if (state.game) {
    const answers = state.game.answers.filter((a) => a.playerId !== seat.id);
    const roster = state.game.roster.filter((id) => id !== seat.id);
    const late = state.game.late?.filter((l) => l.playerId !== seat.id);
    next = { ...next, game: { ...state.game, roster, answers, ...(late ? { late } : {}) } };
  }
  const events: RoomEvent[] = [{ type: 'player.left', data: { playerId: seat.id, reason } }];
  const effects: Effect[] = [{ kind: 'release', seats: [seat.id] }];
  const base: Outcome = { state: next, events, effects, reply: {} };

  if (next.phase === 'question' && everyoneAnswered(next)) return chain(base, closeQuestion(next, now));
  const rematch = next.rematch;
  if (next.phase === 'finished' && rematch && !rematch.decided) {
    const voters = rematch.voters.filter((id) => id !== seat.id);
    next = { ...next, rematch: { ...rematch, voters } };
    const decided = decideRematch(next, false, now);
    return decided ? chain({ ...base, state: next }, decided) : { ...base, state: next };
  }
  return base;
}

/**
 * Runs when the timer fires, and makes whatever was due at `now` happen. `newId` gives a finished
 * game its results id (it is the rule context's `id`). Without it, the game has no results link.
 */
export function onDeadline(state: TriviaState, now: number, newId?: () => string): Outcome {
  const game = state.game;
  if (state.phase === 'question' && game && now >= game.closesAt) return closeQuestion(state, now);
  if (state.phase === 'reveal' && game && game.revealEndsAt !== undefined && now >= game.revealEndsAt) {
    return game.index + 1 < game.questions.length ? openNextQuestion(state, now) : finishGame(state, now, newId?.());
  }
  if (state.phase === 'finished' && state.rematch && !state.rematch.decided && now >= state.rematch.closesAt) {
    const decided = decideRematch(state, true, now);
    if (decided) return decided;
  }
  if ((state.phase === 'lobby' || state.phase === 'finished') && now >= state.expiresAt) {
    // The engine records that the room is closed when it sees the close effect.
    return {
      state: { ...state, phase: 'closed' },
      events: [{ type: 'room.closed', data: { reason: 'expired' } }],
      effects: [{ kind: 'close', reason: 'expired' }],
    };
  }
  return unchanged(state);
}

/** Returns the next moment this room has something to do, if any. */
export function nextDeadline(state: TriviaState): number | undefined {
  switch (state.phase) {
    case 'question':
      return state.game?.closesAt;
    case 'reveal':
      return state.game?.revealEndsAt;
    case 'finished':
      return state.rematch && !state.rematch.decided ? Math.min(state.rematch.closesAt, state.expiresAt) : state.expiresAt;
    case 'lobby':
      return state.expiresAt;
    case 'closed':
      return undefined;
  }
}

/**
 * Moves every clock of the room on by `ms`. The room's writes failed for that long, so nobody could
 * answer or vote, and the engine held the room's clocks. What is still to come moves: the open
 * question's window (its opening too, so that an answer's time does not count the hold), the
 * reveal's end, the rematch vote's close and the room's expiry. What records the past stays as it
 * is: when the game started, each answer's time, and the closes of questions already closed.
 */
export function shiftClocks(state: TriviaState, ms: number): TriviaState {
  const { game, rematch } = state;
  switch (state.phase) {
    case 'question':
      return { ...state, game: { ...game!, openedAt: game!.openedAt + ms, closesAt: game!.closesAt + ms } };
    case 'reveal':
      return game?.revealEndsAt === undefined ? state : { ...state, game: { ...game, revealEndsAt: game.revealEndsAt + ms } };
    case 'finished': {
      const voting = rematch && !rematch.decided ? { rematch: { ...rematch, closesAt: rematch.closesAt + ms } } : {};
      return { ...state, ...voting, expiresAt: state.expiresAt + ms };
    }
    case 'lobby':
      return { ...state, expiresAt: state.expiresAt + ms };
    case 'closed':
      return state;
  }
}

/**
 * Records that a seat's sockets came or went. If this closes a question early, the close is made
 * durable before anyone hears of it, because who was connected decided it, and a replay can know
 * that only from the journal.
 */
export function setPresence(state: TriviaState, playerId: string, connected: boolean, now: number): Outcome {
  const seat = state.players.find((p) => p.id === playerId);
  if (!seat || seat.connected === connected) return unchanged(state);
  const next: TriviaState = { ...state, players: state.players.map((p) => (p.id === playerId ? { ...p, connected } : p)) };
  const base: Outcome = { state: next, events: [{ type: 'player.presence', data: { playerId, connected } }], effects: [] };
  if (connected || next.phase !== 'question' || !everyoneAnswered(next)) return base;
  return { ...chain(base, closeQuestion(next, now)), durable: true };
}

/**
 * Runs when a fresh process takes the room. Nobody is connected until their sockets come back. When
 * nobody was connected, the state is returned as it is.
 */
export function resumed(state: TriviaState): TriviaState {
  if (!state.players.some((p) => p.connected)) return state;
  return { ...state, players: state.players.map((p) => ({ ...p, connected: false })) };
}

/** Runs when the room was closed from outside (HTTP API, operator). The change is already committed. */
export function roomClosed(state: TriviaState, reason: string): Outcome {
  if (state.phase === 'closed') return unchanged(state);
  return {
    state: { ...state, phase: 'closed' },
    events: [{ type: 'room.closed', data: { reason } }],
    effects: [{ kind: 'close', reason }],
  };
}

function closeQuestion(state: TriviaState, now: number): Outcome {
  const game = state.game!;
  const q = game.questions[game.index];
  const counts = countsOf(q, game.answers);
  const players = state.players.map((p) => {
    const a = answerOf(game, p.id);
    if (!a || !a.correct) return p;
    return { ...p, score: p.score + a.points, correct: p.correct + 1, elapsedSum: p.elapsedSum + a.elapsedMs };
  });
  const scores = game.roster.map((id) => ({
    playerId: id,
    points: answerOf(game, id)?.points ?? 0,
    total: players.find((p) => p.id === id)?.score ?? 0,
  }));
  const closed: QuestionClosed = { index: game.index, correct: revealed(q), counts, scores };
  const answers: ClosedAnswer[] = game.roster.flatMap((id) => {
    const a = answerOf(game, id);
    const name = state.players.find((p) => p.id === id)?.name ?? id;
    return a ? [{ playerId: id, name, ...givenIn(a), correct: a.correct, points: a.points, elapsedMs: a.elapsedMs }] : [];
  });
  // A host-paced room waits after the reveal until the host sends room.next, so no clock ends the
  // reveal.
  const { revealEndsAt: _ends, ...open } = game;
  const ends = (state.settings.pace ?? 'clock') === 'clock' ? { revealEndsAt: now + state.settings.revealSeconds * 1000 } : {};
  const next: TriviaState = {
    ...state,
    phase: 'reveal',
    players,
    game: { ...open, ...ends, lastReveal: closed, closed: [...game.closed, answers] },
  };
  return { state: next, events: [{ type: 'question.closed', data: closed }], effects: [] };
}

/** Opens the next question. The players who joined since the last question opened play from this one. */
function openNextQuestion(state: TriviaState, now: number): Outcome {
  const { revealEndsAt: _ends, ...game } = state.game!;
  const index = game.index + 1;
  const arrived = (game.late ?? []).filter((l) => l.from === index && !game.roster.includes(l.playerId)).map((l) => l.playerId);
  const next: TriviaState = {
    ...state,
    phase: 'question',
    game: {
      ...game,
      index,
      roster: arrived.length ? [...game.roster, ...arrived] : game.roster,
      openedAt: now,
      closesAt: now + durationMs(state, game.questions[index]),
      answers: [],
    },
  };
  return { state: next, events: [questionOpen(next, now)], effects: [] };
}

/** The first question a player who joined while `game` ran can answer; undefined for one who plays it from the start. */
export function lateStartIn(game: Game, playerId: string): number | undefined {
  return game.late?.find((l) => l.playerId === playerId)?.from;
}

/**
 * Finishes the game after the last reveal ends. It ranks the standings, opens the rematch vote, and
 * writes the game's summary for the finished games.
 */
function finishGame(state: TriviaState, now: number, resultsId: string | undefined): Outcome {
  const game = state.game!;
  const standings = rankStandings(
    state.players.filter((p) => game.roster.includes(p.id)),
    (id) => lateStartIn(game, id) ?? 0,
  );
  const closesAt = now + state.settings.rematchSeconds * 1000;
  const opened: TriviaState = {
    ...state,
    phase: 'finished',
    standings,
    ...(resultsId ? { resultsId } : {}),
    rematch: { gameId: game.id, closesAt, voters: [...game.roster], votes: {} },
    expiresAt: now + state.settings.expirySeconds * 1000,
  };
  const base: Outcome = {
    state: opened,
    events: [
      { type: 'game.finished', data: { standings, ...(resultsId ? { resultsId } : {}) } },
      { type: 'rematch.open', data: { closesAt } },
    ],
    effects: [],
    boundary: true,
    finished: {
      no: game.no,
      summary: { ...(resultsId ? { resultsId } : {}), ...gameSummary(state, standings, now) },
      ...(resultsId ? { id: resultsId } : {}),
    },
  };
  // With too few players to ever reach a rematch, the rematch is declined at once.
  const decided = decideRematch(opened, false, now);
  return decided ? chain(base, decided) : base;
}

function gameSummary(state: TriviaState, standings: readonly Standing[], now: number): GameSummary {
  const game = state.game!;
  return {
    code: state.code,
    hostName: state.hostName,
    no: game.no,
    startedAt: game.startedAt,
    finishedAt: now,
    standings,
    questions: game.questions.map((q, index) => ({
      index,
      text: q.text,
      ...(q.kind ? { kind: q.kind } : {}),
      choices: choicesOf(q) ?? [],
      correct: revealed(q),
      answers: game.closed[index] ?? [],
    })),
  };
}

function questionOpen(state: TriviaState, now: number): RoomEvent {
  const game = state.game!;
  const q = game.questions[game.index];
  return {
    type: 'question.open',
    data: { ...openQuestionOf(game, q), closesAt: game.closesAt, serverTime: now },
  };
}

/**
 * The open question as every viewer may see it (`question.open`, `room.state`). It shows the
 * choices unless it is a text question, and the kind, own time and picture when the question has
 * them. It never shows the right answer. A `choice` question without its own time is sent as every
 * question was before kinds existed: no `kind` means choice, and no `seconds` means the room's
 * `secondsPerQuestion`. So a client that predates kinds reads it as it always did.
 */
export function openQuestionOf(game: Game, q: Question) {
  const choices = choicesOf(q);
  return {
    index: game.index,
    total: game.questions.length,
    text: q.text,
    ...(choices ? { choices } : {}),
    ...(q.kind && q.kind !== 'choice' ? { kind: q.kind } : {}),
    ...(q.seconds !== undefined ? { seconds: q.seconds } : {}),
    ...(q.image ? { image: imageUrl(q.image) } : {}),
  };
}

/** Where a question's picture is served (the images API, PROTOCOL.md section 13). */
export function imageUrl(imageId: string): string {
  return `/api/images/${encodeURIComponent(imageId)}`;
}

/** Tells whether every connected player in the game has answered, and at least one has. */
function everyoneAnswered(state: TriviaState): boolean {
  const game = state.game;
  if (!game || game.answers.length === 0) return false;
  return game.roster.every((id) => answerOf(game, id) || !state.players.find((p) => p.id === id)?.connected);
}

/**
 * Compares names as people read them. Spaces around and between words, and case, do not make two
 * names different.
 */
function sameName(a: string, b: string): boolean {
  const key = (s: string) => s.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
  return key(a) === key(b);
}

/** The player's answer to the current question, if it has one. */
export function answerOf(game: Game, playerId: string): Answer | undefined {
  return game.answers.find((a) => a.playerId === playerId);
}

function seatOf(state: TriviaState, viewer: Actor): Seat {
  const seat = viewer.seat ? state.players.find((p) => p.id === viewer.seat) : undefined;
  if (!seat) refuse(RoomErrorCode.SeatGone, 'this seat has left the room');
  return seat;
}

/** How long a question stays open: its own seconds, or else the room's. */
function durationMs(state: TriviaState, q: Question): number {
  return (q.seconds ?? state.settings.secondsPerQuestion) * 1000;
}

export function publicSeat(seat: Seat): { id: string; name: string; connected: boolean; score: number } {
  return { id: seat.id, name: seat.name, connected: seat.connected, score: seat.score };
}
