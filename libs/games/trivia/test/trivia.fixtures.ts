// These builders serve the rules' unit tests: a room in a known state, and commands to send it.
import { RoomException } from '@app/protocol';
import { Actor, RuleContext, seededRandom, unguessableIds } from '@app/room-engine';
import { RoomCommand } from '../src/trivia.commands';
import { beginGame, decide } from '../src/trivia.rules';
import { ChoiceQuestion, Outcome, Question, Seat, Settings, TriviaState } from '../src/trivia.types';

type Viewer = Actor;

// Every rule takes `now` explicitly. T0 stands in for "the moment the test begins".
export const T0 = 1_700_000_000_000;

/** The rules' context at `now`. Its draws are those of a room seeded with 7. */
export const ctx = (now: number): RuleContext => ({ now, random: seededRandom(7, now), id: unguessableIds(undefined, 7, now) });

export const SETTINGS: Settings = {
  deckId: 'deck-1',
  questionCount: 3,
  secondsPerQuestion: 20,
  revealSeconds: 4,
  maxPlayers: 4,
  minPlayers: 2,
  rematchSeconds: 30,
  expirySeconds: 300,
};
export const DURATION = SETTINGS.secondsPerQuestion * 1000;

export const QUESTIONS: ChoiceQuestion[] = [
  { id: 11, text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome', 'Madrid'], correct: 1 },
  { id: 12, text: '2 + 2?', choices: ['3', '5', '4'], correct: 2 },
  { id: 13, text: 'Largest ocean?', choices: ['Pacific', 'Atlantic'], correct: 0 },
];

export const HOST: Viewer = { role: 'host' };
export const SPECTATOR: Viewer = { role: 'spectator' };
export const asPlayer = (id: string): Viewer => ({ role: 'player', seat: id });

export function seat(id: string, overrides: Partial<Seat> = {}): Seat {
  return { id, name: `Name ${id}`, connected: true, score: 0, correct: 0, elapsedSum: 0, ...overrides };
}

/** A lobby with players p1..pn, all connected. */
export function lobby(n = 3, settings: Partial<Settings> = {}): TriviaState {
  return {
    roomId: 'room-1',
    code: 'ABCDEF',
    hostName: 'Quizmaster',
    phase: 'lobby',
    settings: { ...SETTINGS, ...settings },
    players: Array.from({ length: n }, (_, i) => seat(`p${i + 1}`)),
    gamesPlayed: 0,
    expiresAt: T0 + SETTINGS.expirySeconds * 1000,
    deck: QUESTIONS,
    playedQuestionIds: [],
  };
}

export function startCommand(): RoomCommand {
  return { id: 'h-start', type: 'room.start', data: {} };
}

/**
 * Begins the next game at `now` with these questions in this order, where a real start would draw
 * them in a random order. It opens question 0. `roster` overrides the seated players.
 */
export function startGame(state: TriviaState, now = T0, roster?: string[], questions: Question[] = QUESTIONS): Outcome {
  const no = state.gamesPlayed + 1;
  return beginGame(state, { id: `${state.roomId}:${no}`, no, questions, roster: roster ?? state.players.map((p) => p.id) }, now);
}

export function inQuestion(n = 3, settings: Partial<Settings> = {}, questions: Question[] = QUESTIONS): TriviaState {
  return startGame(lobby(n, settings), T0, undefined, questions).state;
}

export function answer(
  state: TriviaState,
  playerId: string,
  question: number,
  choice: number,
  now: number,
  id = `${playerId}-q${question}`,
): Outcome {
  return decide(state, asPlayer(playerId), { id, type: 'room.answer', data: { question, choice } }, ctx(now));
}

export function vote(state: TriviaState, playerId: string, yes: boolean, now: number, id = `${playerId}-vote`): Outcome {
  return decide(state, asPlayer(playerId), { id, type: 'room.rematch', data: { vote: yes } }, ctx(now));
}

export function leave(state: TriviaState, playerId: string, now: number): Outcome {
  return decide(state, asPlayer(playerId), { id: `${playerId}-leave`, type: 'room.leave', data: {} }, ctx(now));
}

export function kick(state: TriviaState, playerId: string, now: number): Outcome {
  return decide(state, HOST, { id: `kick-${playerId}`, type: 'room.kick', data: { playerId } }, ctx(now));
}

/** Runs `fn`, which must refuse, and returns the refusal's code and status. */
export function refusal(fn: () => unknown): { code: string; status: number } {
  try {
    fn();
  } catch (err) {
    if (err instanceof RoomException) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('expected a RoomException, but the rule accepted');
}
