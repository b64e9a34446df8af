import { RoomErrorCode } from '@app/protocol';
import { Actor, chain, Effect, RoomEvent, unchanged } from '@app/room-engine';
import { RoomCommand } from './trivia.commands';
import { refuse, TriviaErrorCode } from './trivia.errors';
import { rankStandings, pointsFor } from './trivia.scoring';
import { decideRematch } from './trivia.rematch';
import { Answer, Departure, Game, Outcome, Question, QuestionClose, QuestionClosed, Seat, TriviaState, Write } from './trivia.types';

// Trivia rules: pure functions of (state, input, now). No clock reads, no I/O, no randomness:
// the drawn questions and new ids are passed in. `now` is a command's arrival or the moment a
// deadline was due, so that replaying the same inputs rebuilds the same room.

/** Commands whose writes can be committed together when they wait in the mailbox together. */
export function batchKindOf(command: RoomCommand): 'answer' | 'vote' | null {
  if (command.type === 'room.answer') return 'answer';
  if (command.type === 'room.rematch') return 'vote';
  return null;
}

/** A room command from a viewer, arrived at `now`. Throws RoomException for a refusal. */
export function decide(state: TriviaState, viewer: Actor, command: RoomCommand, now: number): Outcome {
  switch (command.type) {
    case 'room.start':
      return start(state, command.id, now);
    case 'room.answer':
      return answer(state, seatOf(state, viewer), command.id, command.data.question, command.data.choice, now);
    case 'room.rematch':
      return vote(state, seatOf(state, viewer), command.id, command.data.vote, now);
    case 'room.leave':
      return release(state, seatOf(state, viewer), 'left', command.id, now);
    case 'room.kick':
      return kick(state, command.data.playerId, command.id, now);
  }
}

/** A player asks for a seat (through the HTTP API). */
export function join(state: TriviaState, playerId: string, name: string): Outcome {
  if (state.phase === 'closed') refuse(RoomErrorCode.RoomClosed, 'the room is closed');
  if (state.phase !== 'lobby') refuse(TriviaErrorCode.GameInProgress, 'a game is in progress; join when the room is back in the lobby');
  if (state.players.length >= state.settings.maxPlayers) {
    refuse(TriviaErrorCode.RoomFull, `the room is full (${state.settings.maxPlayers} players)`);
  }
  const seat: Seat = { id: playerId, name, connected: false, score: 0, correct: 0, elapsedSum: 0 };
  return {
    state: { ...state, players: [...state.players, seat] },
    writes: [{ kind: 'addPlayer', roomId: state.roomId, playerId, name }],
    events: [{ type: 'player.joined', data: { player: publicSeat(seat) } }],
    effects: [],
    reply: { playerId },
  };
}

function start(state: TriviaState, commandId: string, now: number): Outcome {
  if (state.phase !== 'lobby') refuse(TriviaErrorCode.WrongPhase, `the game can start only in the lobby (phase is ${state.phase})`);
  if (state.players.length === 0) refuse(TriviaErrorCode.NoPlayers, 'at least one player must join before the game starts');
  const write: Write = {
    kind: 'startGame',
    roomId: state.roomId,
    gameNo: state.gamesPlayed + 1,
    deckId: state.settings.deckId,
    questionCount: state.settings.questionCount,
    roster: state.players.map((p) => p.id),
    avoidQuestionIds: [...state.playedQuestionIds],
    startedAt: now,
    commandId,
  };
  return { state, writes: [write], events: [], effects: [], reply: {} };
}

/**
 * After the start is committed: the drawn questions are known and the first one opens, on the
 * clock the start recorded (`now` is the start's `startedAt`).
 */
export function gameStarted(
  state: TriviaState,
  started: { gameId: string; gameNo: number; questions: readonly Question[]; roster: readonly string[] },
  now: number,
): Outcome {
  const players = state.players.map((p) => ({ ...p, score: 0, correct: 0, elapsedSum: 0 }));
  const game: Game = {
    id: started.gameId,
    no: started.gameNo,
    questions: started.questions,
    roster: started.roster.filter((id) => players.some((p) => p.id === id)),
    index: 0,
    openedAt: now,
    closesAt: now + durationMs(state),
    answers: {},
  };
  const next: TriviaState = {
    ...state,
    phase: 'question',
    players,
    game,
    standings: undefined,
    rematch: undefined,
    gamesPlayed: started.gameNo,
    playedQuestionIds: [...state.playedQuestionIds, ...started.questions.map((q) => q.id)],
  };
  return { state: next, writes: [], events: [questionOpen(next, now)], effects: [] };
}

function answer(state: TriviaState, seat: Seat, commandId: string, question: number, choice: number, now: number): Outcome {
  const game = state.game;
  // An answer that arrived after the deadline is late even if the clock's signal is still queued.
  if (state.phase !== 'question' || !game || question !== game.index || now > game.closesAt) {
    refuse(TriviaErrorCode.QuestionClosed, `question ${question} is not open`);
  }
  if (!game.roster.includes(seat.id)) refuse(TriviaErrorCode.NotInGame, 'you are not playing in this game');
  if (game.answers[seat.id]) refuse(TriviaErrorCode.AlreadyAnswered, `you already answered question ${question}`);
  const q = game.questions[game.index];
  if (choice >= q.choices.length) {
    refuse(TriviaErrorCode.ChoiceOutOfRange, `choice must be from 0 to ${q.choices.length - 1}`);
  }
  const elapsedMs = Math.min(Math.max(now - game.openedAt, 0), durationMs(state));
  const correct = choice === q.correct;
  const record: Answer = {
    playerId: seat.id,
    question,
    choice,
    elapsedMs,
    correct,
    points: correct ? pointsFor(elapsedMs, durationMs(state)) : 0,
    commandId,
    at: now,
  };
  const answers = { ...game.answers, [seat.id]: record };
  const next: TriviaState = { ...state, game: { ...game, answers } };
  const progress: RoomEvent = {
    type: 'question.progress',
    data: { index: game.index, answered: Object.keys(answers).length, of: game.roster.length },
  };
  if (!everyoneAnswered(next)) {
    return { state: next, writes: [{ kind: 'recordAnswers', gameId: game.id, answers: [record] }], events: [progress], effects: [], reply: { accepted: true } };
  }
  // The close rides on the answer's own statement: one round trip still.
  const closed = closeQuestion(next, now);
  return {
    ...closed,
    writes: [{ kind: 'recordAnswers', gameId: game.id, answers: [record], close: closeRecord(next, now) }],
    events: [progress, ...closed.events],
    reply: { accepted: true },
  };
}

/** A recorded vote, replayed by the seat that cast it. */
export function decideVote(state: TriviaState, playerId: string, commandId: string | null, yes: boolean, now: number): Outcome {
  const seat = state.players.find((p) => p.id === playerId);
  if (!seat) refuse(RoomErrorCode.SeatGone, 'this seat has left the room');
  return vote(state, seat, commandId, yes, now);
}

function vote(state: TriviaState, seat: Seat, commandId: string | null, yes: boolean, now: number): Outcome {
  const rematch = state.rematch;
  if (rematch?.decided) refuse(TriviaErrorCode.RematchClosed, 'the rematch is already decided');
  if (state.phase !== 'finished' || !rematch) refuse(TriviaErrorCode.WrongPhase, 'no rematch vote is open');
  if (!rematch.voters.includes(seat.id)) refuse(TriviaErrorCode.NotInGame, 'you did not play the last game');
  if (rematch.votes[seat.id] !== undefined) refuse(TriviaErrorCode.AlreadyVoted, 'you already voted');
  const votes = { ...rematch.votes, [seat.id]: yes };
  const next: TriviaState = { ...state, rematch: { ...rematch, votes } };
  const decided = decideRematch(next, false, now);
  const recordVotes: Write = {
    kind: 'recordVotes',
    gameId: rematch.gameId,
    votes: [{ playerId: seat.id, vote: yes, commandId, at: now }],
    decision: decided?.decision,
  };
  return {
    state: decided?.state ?? next,
    writes: [recordVotes],
    events: decided?.events ?? [],
    effects: decided?.effects ?? [],
    resync: decided?.resync,
    reply: {},
  };
}

function kick(state: TriviaState, playerId: string, commandId: string | null, now: number): Outcome {
  const seat = state.players.find((p) => p.id === playerId);
  if (!seat) refuse(TriviaErrorCode.PlayerNotFound, `no seated player has id ${playerId}`);
  return release(state, seat, 'kicked', commandId, now);
}

/** A player leaves or is kicked: the seat goes, and the game or the rematch goes on without it. */
export function release(state: TriviaState, seat: Seat, reason: 'left' | 'kicked', commandId: string | null, now: number): Outcome {
  const players = state.players.filter((p) => p.id !== seat.id);
  let next: TriviaState = { ...state, players };
  if (state.game) {
    const { [seat.id]: _dropped, ...answers } = state.game.answers;
    next = { ...next, game: { ...state.game, roster: state.game.roster.filter((id) => id !== seat.id), answers } };
  }
  const events: RoomEvent[] = [{ type: 'player.left', data: { playerId: seat.id, reason } }];
  const effects: Effect[] = [{ kind: 'release', seats: [seat.id] }];
  const departure: Departure = { playerId: seat.id, reason, at: now, commandId };
  const releaseWrite: Write = { kind: 'releasePlayers', roomId: state.roomId, departure };
  const base: Outcome = { state: next, writes: [releaseWrite], events, effects, reply: {} };

  if (next.phase === 'question' && everyoneAnswered(next)) {
    return { ...chain(base, closeQuestion(next, now)), writes: [{ ...releaseWrite, close: closeRecord(next, now) }] };
  }
  const rematch = next.rematch;
  if (next.phase === 'finished' && rematch && !rematch.decided) {
    const voters = rematch.voters.filter((id) => id !== seat.id);
    next = { ...next, rematch: { ...rematch, voters } };
    const decided = decideRematch(next, false, now);
    if (decided) {
      // One statement still: the release rides on the rematch decision's write.
      const write: Write = decided.decision
        ? { kind: 'recordVotes', gameId: rematch.gameId, votes: [], decision: decided.decision, departure }
        : releaseWrite;
      return { ...chain({ ...base, state: next }, { ...decided, writes: [] }), writes: [write] };
    }
    return { ...base, state: next };
  }
  return base;
}

/** The timer fired: whatever was due at `now` happens. */
export function onDeadline(state: TriviaState, now: number): Outcome {
  const game = state.game;
  if (state.phase === 'question' && game && now >= game.closesAt) return closeQuestion(state, now);
  if (state.phase === 'reveal' && game && game.revealEndsAt !== undefined && now >= game.revealEndsAt) {
    return game.index + 1 < game.questions.length ? openNextQuestion(state, now) : finishGame(state, now);
  }
  if (state.phase === 'finished' && state.rematch && !state.rematch.decided && now >= state.rematch.closesAt) {
    const decided = decideRematch(state, true, now);
    if (decided) {
      const writes: Write[] = decided.decision
        ? [{ kind: 'recordVotes', gameId: state.rematch.gameId, votes: [], decision: decided.decision }]
        : [];
      return { ...decided, writes, effects: decided.effects };
    }
  }
  if ((state.phase === 'lobby' || state.phase === 'finished') && now >= state.expiresAt) {
    return {
      state: { ...state, phase: 'closed' },
      writes: [{ kind: 'closeRoom', roomId: state.roomId, reason: 'expired' }],
      events: [{ type: 'room.closed', data: { reason: 'expired' } }],
      effects: [{ kind: 'close', reason: 'expired' }],
    };
  }
  return unchanged(state);
}

/** The next moment this room has something to do, if any. */
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
 * A seat's sockets came or went. Presence is not written, but a question it closes early is
 * (one statement, off every command's path), since a replay cannot know who was connected.
 */
export function setPresence(state: TriviaState, playerId: string, connected: boolean, now: number): Outcome {
  const seat = state.players.find((p) => p.id === playerId);
  if (!seat || seat.connected === connected) return unchanged(state);
  const next: TriviaState = { ...state, players: state.players.map((p) => (p.id === playerId ? { ...p, connected } : p)) };
  const base: Outcome = { state: next, writes: [], events: [{ type: 'player.presence', data: { playerId, connected } }], effects: [] };
  if (connected || next.phase !== 'question' || !everyoneAnswered(next)) return base;
  return { ...chain(base, closeQuestion(next, now)), writes: [{ kind: 'closeQuestion', close: closeRecord(next, now) }] };
}

/** A fresh process has the room: nobody is connected until their sockets come back. */
export function resumed(state: TriviaState): TriviaState {
  return { ...state, players: state.players.map((p) => ({ ...p, connected: false })) };
}

/** Closes question `index` as recorded (a replay of an early close); nothing if it is not open. */
export function closeRecorded(state: TriviaState, index: number, now: number): Outcome {
  if (state.phase !== 'question' || state.game?.index !== index) return unchanged(state);
  return closeQuestion(state, now);
}

/** The room was closed from outside the room (HTTP API, operator): the change is already committed. */
export function roomClosed(state: TriviaState, reason: string): Outcome {
  if (state.phase === 'closed') return unchanged(state);
  return {
    state: { ...state, phase: 'closed' },
    writes: [],
    events: [{ type: 'room.closed', data: { reason } }],
    effects: [{ kind: 'close', reason }],
  };
}

function closeRecord(state: TriviaState, now: number): QuestionClose {
  return { gameId: state.game!.id, index: state.game!.index, at: now };
}

function closeQuestion(state: TriviaState, now: number): Outcome {
  const game = state.game!;
  const q = game.questions[game.index];
  const counts = q.choices.map(() => 0);
  for (const a of Object.values(game.answers)) counts[a.choice]++;
  const players = state.players.map((p) => {
    const a = game.answers[p.id];
    if (!a || !a.correct) return p;
    return { ...p, score: p.score + a.points, correct: p.correct + 1, elapsedSum: p.elapsedSum + a.elapsedMs };
  });
  const scores = game.roster.map((id) => ({
    playerId: id,
    points: game.answers[id]?.points ?? 0,
    total: players.find((p) => p.id === id)?.score ?? 0,
  }));
  const closed: QuestionClosed = { index: game.index, correct: q.correct, counts, scores };
  const next: TriviaState = {
    ...state,
    phase: 'reveal',
    players,
    game: { ...game, revealEndsAt: now + state.settings.revealSeconds * 1000, lastReveal: closed },
  };
  return { state: next, writes: [], events: [{ type: 'question.closed', data: closed }], effects: [] };
}

function openNextQuestion(state: TriviaState, now: number): Outcome {
  const game = state.game!;
  const next: TriviaState = {
    ...state,
    phase: 'question',
    game: { ...game, index: game.index + 1, openedAt: now, closesAt: now + durationMs(state), answers: {}, revealEndsAt: undefined },
  };
  return { state: next, writes: [], events: [questionOpen(next, now)], effects: [] };
}

function finishGame(state: TriviaState, now: number): Outcome {
  const game = state.game!;
  const inGame = state.players.filter((p) => game.roster.includes(p.id));
  const standings = rankStandings(inGame);
  const elapsedSums = Object.fromEntries(inGame.map((p) => [p.id, p.elapsedSum]));
  const closesAt = now + state.settings.rematchSeconds * 1000;
  const opened: TriviaState = {
    ...state,
    phase: 'finished',
    standings,
    rematch: { gameId: game.id, closesAt, voters: [...game.roster], votes: {} },
    expiresAt: now + state.settings.expirySeconds * 1000,
  };
  const base: Outcome = {
    state: opened,
    writes: [{ kind: 'finishGame', roomId: state.roomId, gameId: game.id, standings, elapsedSums }],
    events: [
      { type: 'game.finished', data: { standings } },
      { type: 'rematch.open', data: { closesAt } },
    ],
    effects: [],
  };
  // Too few players to ever reach a rematch: it is declined at once (a declined vote writes nothing).
  const decided = decideRematch(opened, false, now);
  return decided ? chain(base, { ...decided, writes: [] }) : base;
}

function questionOpen(state: TriviaState, now: number): RoomEvent {
  const game = state.game!;
  const q = game.questions[game.index];
  return {
    type: 'question.open',
    data: { index: game.index, total: game.questions.length, text: q.text, choices: q.choices, closesAt: game.closesAt, serverTime: now },
  };
}

/** Every connected player in the game has answered, and at least one has. */
function everyoneAnswered(state: TriviaState): boolean {
  const game = state.game;
  if (!game || Object.keys(game.answers).length === 0) return false;
  return game.roster.every((id) => game.answers[id] || !state.players.find((p) => p.id === id)?.connected);
}

function seatOf(state: TriviaState, viewer: Actor): Seat {
  const seat = viewer.seat ? state.players.find((p) => p.id === viewer.seat) : undefined;
  if (!seat) refuse(RoomErrorCode.SeatGone, 'this seat has left the room');
  return seat;
}

function durationMs(state: TriviaState): number {
  return state.settings.secondsPerQuestion * 1000;
}

export function publicSeat(seat: Seat): { id: string; name: string; connected: boolean; score: number } {
  return { id: seat.id, name: seat.name, connected: seat.connected, score: seat.score };
}
