import { Outcome as EngineOutcome } from '@app/room-engine';

export type Phase = 'lobby' | 'question' | 'reveal' | 'finished' | 'closed';

/** Room settings fixed when the room is opened. */
export interface Settings {
  readonly deckId: string;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly maxPlayers: number;
  /** Yes votes a rematch needs. */
  readonly minPlayers: number;
  readonly rematchSeconds: number;
  /** A room without a game for this long closes as expired. */
  readonly expirySeconds: number;
}

export interface Question {
  readonly id: number;
  readonly text: string;
  readonly choices: readonly string[];
  readonly correct: number;
}

export interface Seat {
  readonly id: string;
  readonly name: string;
  readonly connected: boolean;
  /** Totals of the current (or last) game. */
  readonly score: number;
  readonly correct: number;
  /** Sum of elapsed milliseconds on right answers: the tie-breaker. */
  readonly elapsedSum: number;
}

export interface Answer {
  readonly playerId: string;
  readonly question: number;
  readonly choice: number;
  readonly elapsedMs: number;
  readonly points: number;
  readonly correct: boolean;
  readonly commandId: string;
  /** When it arrived (epoch ms): what a replay orders it by. */
  readonly at: number;
}

export interface Game {
  readonly id: string;
  readonly no: number;
  readonly questions: readonly Question[];
  /** Players who play this game, in seat order; a player who leaves is taken out. */
  readonly roster: readonly string[];
  readonly index: number;
  readonly openedAt: number;
  readonly closesAt: number;
  /** Answers to the current question, by player id. */
  readonly answers: Readonly<Record<string, Answer>>;
  /** Set during `reveal`: when the next question opens (or the game finishes). */
  readonly revealEndsAt?: number;
  /** The reveal of the last closed question, so a client that connects during `reveal` sees it. */
  readonly lastReveal?: QuestionClosed;
}

export interface Rematch {
  readonly gameId: string;
  readonly closesAt: number;
  readonly voters: readonly string[];
  readonly votes: Readonly<Record<string, boolean>>;
  readonly decided?: { readonly accepted: boolean; readonly playerIds: readonly string[] };
}

export interface Standing {
  readonly playerId: string;
  readonly name: string;
  readonly score: number;
  readonly correct: number;
  readonly rank: number;
}

export interface TriviaState {
  readonly roomId: string;
  readonly code: string;
  readonly hostName: string;
  readonly phase: Phase;
  readonly settings: Settings;
  /** Seated players in join order. */
  readonly players: readonly Seat[];
  readonly gamesPlayed: number;
  readonly game?: Game;
  readonly standings?: readonly Standing[];
  readonly rematch?: Rematch;
  /** When the room closes as expired if no game starts before then. */
  readonly expiresAt: number;
  /** Question ids already played in this room, avoided by the next draw while the deck allows. */
  readonly playedQuestionIds: readonly number[];
}

// Event payloads (PROTOCOL.md section 3, Events).
export interface QuestionClosed {
  readonly index: number;
  readonly correct: number;
  readonly counts: readonly number[];
  readonly scores: readonly { playerId: string; points: number; total: number }[];
}

/** What the room must make durable before anyone hears of a change. */
export type Write =
  | { kind: 'addPlayer'; roomId: string; playerId: string; name: string }
  | {
      kind: 'startGame';
      roomId: string;
      gameNo: number;
      deckId: string;
      questionCount: number;
      roster: string[];
      avoidQuestionIds: number[];
      /** When the first question opens: the game's clock starts here, and a restart resumes from it. */
      startedAt: number;
      commandId: string | null;
    }
  | { kind: 'recordAnswers'; gameId: string; answers: Answer[]; close?: QuestionClose }
  | { kind: 'closeQuestion'; close: QuestionClose }
  | { kind: 'finishGame'; roomId: string; gameId: string; standings: Standing[]; elapsedSums: Record<string, number> }
  | {
      kind: 'recordVotes';
      gameId: string;
      votes: { playerId: string; vote: boolean; commandId: string | null; at: number }[];
      decision?: RematchDecision;
      /** A player who left, released with the rematch's decision in the same statement. */
      departure?: Departure;
    }
  | { kind: 'releasePlayers'; roomId: string; departure: Departure; close?: QuestionClose }
  | { kind: 'closeRoom'; roomId: string; reason: string };

/**
 * A question that closed before its deadline. Closing at the deadline needs no record (a replay
 * knows the clock); closing early does, since who was connected then is not written.
 */
export interface QuestionClose {
  readonly gameId: string;
  readonly index: number;
  readonly at: number;
}

/** A seat that left or was kicked, and when: a replay takes it out of the game at that moment. */
export interface Departure {
  readonly playerId: string;
  readonly reason: 'left' | 'kicked';
  readonly at: number;
  /** The command that did it (the player's leave, the host's kick). */
  readonly commandId: string | null;
}

export interface RematchDecision {
  readonly roomId: string;
  readonly accepted: boolean;
  readonly keepIds: readonly string[];
  readonly releaseIds: readonly string[];
}

/** The result of a rule: the next state, what to write, what to tell, and what to close. */
export type Outcome = EngineOutcome<TriviaState, Write>;
