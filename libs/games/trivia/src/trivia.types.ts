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
}

/** One answer to a closed question, as the finished game's summary reports it. */
export interface ClosedAnswer {
  readonly playerId: string;
  /** The player's name when the question closed: a player who left later is still named. */
  readonly name: string;
  readonly choice: number;
  readonly correct: boolean;
  readonly points: number;
  readonly elapsedMs: number;
}

export interface Game {
  /** `${roomId}:${no}`: the same game gets the same id in a replay. */
  readonly id: string;
  readonly no: number;
  /** When the first question opened. */
  readonly startedAt: number;
  readonly questions: readonly Question[];
  /** Players who play this game, in seat order; a player who leaves is taken out. */
  readonly roster: readonly string[];
  readonly index: number;
  readonly openedAt: number;
  readonly closesAt: number;
  /**
   * Answers to the current question, in the order they were accepted (each names its player). A
   * list, not an object keyed by player id: every room's ids are new keys, and an object built
   * key by key gave V8 a new hidden class per room and answer order (an answer cost 10 to 20 us
   * in the ladder's profile, against under 1 us as a list). Snapshots before this held the object.
   */
  readonly answers: readonly Answer[];
  /** Set during `reveal`: when the next question opens (or the game finishes). */
  readonly revealEndsAt?: number;
  /** The reveal of the last closed question, so a client that connects during `reveal` sees it. */
  readonly lastReveal?: QuestionClosed;
  /** The answers to each question closed so far, by index: what the finished game reports. */
  readonly closed: readonly (readonly ClosedAnswer[])[];
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
  /** The room's questions, copied in when it opened: every game draws from these. */
  readonly deck: readonly Question[];
  /** The last finished game's results id, while the room is `finished`. */
  readonly resultsId?: string;
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

/** What a finished game reports (`finished.summary`): the leaderboard reads `standings`, the results page the rest. */
export interface GameSummary {
  /** The finished game's results link (PROTOCOL.md section 12): unguessable, the same in a replay. */
  readonly resultsId?: string;
  readonly code: string;
  readonly hostName: string;
  readonly no: number;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly standings: readonly Standing[];
  readonly questions: readonly {
    readonly index: number;
    readonly text: string;
    readonly choices: readonly string[];
    readonly correct: number;
    readonly answers: readonly ClosedAnswer[];
  }[];
}

/** The result of a rule: the next state, what to tell, and what to close. */
export type Outcome = EngineOutcome<TriviaState>;
