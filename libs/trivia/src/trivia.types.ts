import { Phase, Role } from '@app/protocol';

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

export interface Viewer {
  readonly role: Role;
  readonly playerId?: string;
}

// Event payloads (PROTOCOL.md section 3, Events).
export interface QuestionClosed {
  readonly index: number;
  readonly correct: number;
  readonly counts: readonly number[];
  readonly scores: readonly { playerId: string; points: number; total: number }[];
}

export interface RoomEvent {
  readonly type: string;
  readonly data: unknown;
}

/** What the room must make durable before anyone hears of a change. */
export type Write =
  | { kind: 'addPlayer'; roomId: string; playerId: string; name: string }
  | { kind: 'startGame'; roomId: string; gameNo: number; deckId: string; questionCount: number; roster: string[]; avoidQuestionIds: number[] }
  | { kind: 'recordAnswers'; gameId: string; answers: Answer[] }
  | { kind: 'finishGame'; roomId: string; gameId: string; standings: Standing[]; elapsedSums: Record<string, number> }
  | { kind: 'recordVotes'; gameId: string; votes: { playerId: string; vote: boolean; commandId: string | null }[]; decision?: RematchDecision }
  | { kind: 'releasePlayers'; roomId: string; playerIds: string[]; reason: 'left' | 'kicked' }
  | { kind: 'closeRoom'; roomId: string; reason: string };

export interface RematchDecision {
  readonly roomId: string;
  readonly accepted: boolean;
  readonly keepIds: readonly string[];
  readonly releaseIds: readonly string[];
}

/** Side effects beyond events: sockets the transport must close after the events went out. */
export type Effect =
  | { kind: 'release'; playerIds: readonly string[] }
  | { kind: 'closeRoom'; reason: string };

/** The result of a rule: the next state, what to write, what to tell, and what to close. */
export interface Outcome {
  readonly state: TriviaState;
  readonly writes: readonly Write[];
  readonly events: readonly RoomEvent[];
  /** Whether every viewer needs a fresh `room.state` (a change a client cannot derive). */
  readonly resync?: boolean;
  readonly effects: readonly Effect[];
  readonly reply?: unknown;
}
