import { Outcome as EngineOutcome } from '@app/room-engine';

export type Phase = 'lobby' | 'question' | 'reveal' | 'finished' | 'closed';

/** Room settings fixed when the room is opened. */
export interface Settings {
  readonly deckId: string;
  readonly questionCount: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly maxPlayers: number;
  /** How many yes votes a rematch needs. */
  readonly minPlayers: number;
  readonly rematchSeconds: number;
  /** A room without a game for this long closes as expired. */
  readonly expirySeconds: number;
  /**
   * Who moves the game on after a reveal: the clock or the host (`room.next`). It is absent, meaning
   * the clock, in rooms opened before pace existed.
   */
  readonly pace?: Pace;
  /** How a game takes its questions from the deck: drawn at random (when absent) or in the deck's order. */
  readonly order?: QuestionOrder;
  /** Whether a player may join while a game runs. When it is absent, a player may. */
  readonly lateJoin?: boolean;
}

export type Pace = 'clock' | 'host';
export type QuestionOrder = 'shuffled' | 'deck';

/** The kinds of question (PROTOCOL.md section 13). A question without a kind is a `choice` question. */
export type QuestionKind = 'choice' | 'truefalse' | 'multi' | 'poll' | 'text';

/** What every kind of question has: its id in the room, its text, and its own time and picture if it has them. */
interface QuestionBase {
  readonly id: number;
  readonly text: string;
  /** The question's own time in seconds, instead of the room's `secondsPerQuestion`. */
  readonly seconds?: number;
  /** The id of the question's picture (served at `/api/images/{image}`). */
  readonly image?: string;
}

/**
 * A question as a room plays it. A `choice` question has no `kind` field, just as no question had one
 * before kinds existed. A `truefalse` question has the choices `True` and `False`.
 */
export type Question =
  | ChoiceQuestion
  | (QuestionBase & { readonly kind: 'multi'; readonly choices: readonly string[]; readonly correct: readonly number[] })
  | (QuestionBase & { readonly kind: 'poll'; readonly choices: readonly string[] })
  | (QuestionBase & { readonly kind: 'text'; readonly accepted: readonly string[] });

/**
 * A question with one right choice: a `choice` question, or a `truefalse` question with its two
 * choices. Every question before kinds existed was of this sort.
 */
export type ChoiceQuestion = QuestionBase & {
  readonly kind?: 'choice' | 'truefalse';
  readonly choices: readonly string[];
  readonly correct: number;
};

/**
 * What a player answered: one choice (`choice`, `truefalse`, `poll`), a set of choices (`multi`) or a
 * typed text (`text`).
 */
export type Given = { readonly choice: number } | { readonly choices: readonly number[] } | { readonly text: string };

export interface Seat {
  readonly id: string;
  readonly name: string;
  readonly connected: boolean;
  /** The score and the count of right answers are totals of the current (or last) game. */
  readonly score: number;
  readonly correct: number;
  /** The sum of elapsed milliseconds on right answers. It breaks ties. */
  readonly elapsedSum: number;
}

/** What an answer holds besides what was given. */
interface AnswerBase {
  readonly playerId: string;
  readonly question: number;
  readonly elapsedMs: number;
  readonly points: number;
  /** Whether the answer is right. It is never true for a poll. */
  readonly correct: boolean;
}

export type Answer = AnswerBase & Given;

/** One answer to a closed question, as the finished game's summary reports it. */
export type ClosedAnswer = {
  readonly playerId: string;
  /** The player's name when the question closed, so that a player who left later is still named. */
  readonly name: string;
  readonly correct: boolean;
  readonly points: number;
  readonly elapsedMs: number;
} & Given;

/** A player who joined while the game ran, and the first question that player could answer. */
export interface LateStart {
  readonly playerId: string;
  readonly from: number;
}

export interface Game {
  /** The id is `${roomId}:${no}`, so the same game gets the same id in a replay. */
  readonly id: string;
  readonly no: number;
  /** When the first question opened. */
  readonly startedAt: number;
  readonly questions: readonly Question[];
  /** The players who play this game, in seat order. A player who leaves is taken out. */
  readonly roster: readonly string[];
  readonly index: number;
  readonly openedAt: number;
  readonly closesAt: number;
  /**
   * The answers to the current question, in the order they were accepted. Each answer names its
   * player. This is a list, not an object keyed by player id, because every room's ids are new keys.
   * An object built key by key gave V8 a new hidden class per room and answer order: an answer cost
   * 10 to 20 us in the ladder's profile, against under 1 us as a list. Snapshots from before this
   * change held the object.
   */
  readonly answers: readonly Answer[];
  /** Set during `reveal`. It says when the next question opens (or the game finishes). */
  readonly revealEndsAt?: number;
  /** The reveal of the last closed question, so that a client that connects during `reveal` sees it. */
  readonly lastReveal?: QuestionClosed;
  /** The answers to each question closed so far, by index. The finished game reports these. */
  readonly closed: readonly (readonly ClosedAnswer[])[];
  /**
   * The players who joined while the game ran, each with the first question that player could
   * answer. A player seated during a question waits until the next question opens: the player is
   * not in the roster yet, and `from` is still to come. The list is absent while nobody joined late.
   */
  readonly late?: readonly LateStart[];
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
  /** For a late arrival, the index of the first question the player could answer. When absent, it is 0, the first. */
  readonly from?: number;
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
  /** The room's questions, copied in when the room opened. Every game draws from these. */
  readonly deck: readonly Question[];
  /** The last finished game's results id, while the room is `finished`. */
  readonly resultsId?: string;
  /** The ids of questions already played in this room. The next draw avoids them while the deck allows. */
  readonly playedQuestionIds: readonly number[];
}

// The payloads of events (PROTOCOL.md section 3, Events).
export interface QuestionClosed {
  readonly index: number;
  /**
   * The right choice (`choice`, `truefalse`), the right choices (`multi`), the accepted answers
   * (`text`), or null (`poll`).
   */
  readonly correct: RevealedAnswer;
  /** How many players picked each choice, or how many typed a right and a wrong answer (`text`). */
  readonly counts: readonly number[] | { readonly right: number; readonly wrong: number };
  readonly scores: readonly { playerId: string; points: number; total: number }[];
}

/**
 * What a finished game reports (`finished.summary`). The leaderboard reads `standings`, and the
 * results page reads the rest.
 */
export interface GameSummary {
  /** The finished game's results link (PROTOCOL.md section 12). It is unguessable, and the same in a replay. */
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
    /** Absent for a `choice` question, and in every summary from before kinds existed. */
    readonly kind?: QuestionKind;
    /** Empty for a `text` question. */
    readonly choices: readonly string[];
    readonly correct: RevealedAnswer;
    readonly answers: readonly ClosedAnswer[];
  }[];
}

/** A question's right answer as its reveal gives it: an index, several indices, accepted texts, or null for a poll. */
export type RevealedAnswer = number | readonly number[] | readonly string[] | null;

/** The result of a rule: the next state, what to tell, and what to close. */
export type Outcome = EngineOutcome<TriviaState>;
