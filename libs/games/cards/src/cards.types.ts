import { Outcome as EngineOutcome } from '@app/room-engine';

/** A card as the wire spells it: its rank (2-9, T, J, Q, K, A) and its suit (s, h, d, c), like "As" or "Td". */
export type Card = string;

export type Street = 'preflop' | 'flop' | 'turn' | 'river';

export type ActionKind = 'fold' | 'check' | 'call' | 'bet' | 'raise' | 'all_in';

/**
 * `between` is the pause after a hand (or before the first). `waiting` means the human has no chips
 * and has not bought in again. `playing` means a hand is on. `closed` means the table is gone.
 */
export type TablePhase = 'between' | 'playing' | 'waiting' | 'closed';

/** A table's settings, which are fixed when it is opened (PROTOCOL.md section 8, `POST /api/tables`). */
export interface TableSettings {
  /** The human's name at the table. */
  readonly name: string;
  readonly bots: number;
  readonly smallBlind: number;
  readonly bigBlind: number;
  readonly buyIn: number;
  readonly actionSeconds: number;
  readonly botThinkMs: readonly [number, number];
  readonly handPauseMs: number;
  /**
   * The seed deals every hand and drives every bot's choice, so the same seed and human actions give
   * the same hands.
   */
  readonly seed: number;
  /** A table whose human has no chips closes as expired after this long without a rebuy. */
  readonly idleCloseMs: number;
}

export interface TableSeat {
  /** The seat's number, counted from 0 in the direction the button moves. */
  readonly seat: number;
  readonly name: string;
  readonly human: boolean;
  readonly stack: number;
  /** Every chip this seat was given: the first buy-in and every rebuy. */
  readonly buyInTotal: number;
  /** How many hands this seat was dealt into. */
  readonly hands: number;
  readonly connected: boolean;
}

/** One seat's part in the hand being played. */
export interface SeatInHand {
  readonly seat: number;
  readonly cards: readonly [Card, Card];
  /** The chips the seat put in on the current street. */
  readonly committed: number;
  /** The chips the seat put in during the whole hand, blinds included. */
  readonly totalIn: number;
  readonly folded: boolean;
  readonly allIn: boolean;
}

export interface HandState {
  readonly number: number;
  readonly button: number;
  readonly street: Street;
  /** The hand's whole deck in dealing order. What is not on the board yet is never shown. */
  readonly deck: readonly Card[];
  readonly board: readonly Card[];
  readonly players: readonly SeatInHand[];
  readonly currentBet: number;
  /** The size of the last full bet or raise on this street. At the street's start it is the big blind. */
  readonly lastRaise: number;
  /** The seats that still have to act on this street. */
  readonly pending: readonly number[];
  /** The seats that may only call or fold, because a short all-in did not reopen the betting for them. */
  readonly raiseClosed: readonly number[];
  /** The seat that bet or raised last on the last street with betting. It shows first at the showdown. */
  readonly lastAggressor: number | null;
  readonly toAct: number | null;
  /** The clock of the seat to act, as every viewer is told. */
  readonly actionDeadline: number | null;
  /** The moment a bot acts, after its think time. It is never later than the bot's clock. */
  readonly botActsAt: number | null;
  /** When the current seat's turn began. An action is never taken earlier than that. */
  readonly turnAt: number;
  /** How many actions were taken in this hand, blinds excluded. A recorded action names its place in the hand by it. */
  readonly actions: number;
}

export interface CardsState {
  readonly tableId: string;
  readonly code: string;
  /** The human's seat id as the engine knows it, which is the token's seat. */
  readonly playerId: string;
  readonly settings: TableSettings;
  readonly phase: TablePhase;
  readonly seats: readonly TableSeat[];
  readonly handsPlayed: number;
  /** The button of the last hand dealt. The next hand's button is the seat after it. */
  readonly button: number;
  readonly hand?: HandState;
  /** During `between`, when the next hand is dealt. */
  readonly nextHandAt?: number;
  /** During `waiting`, when the table closes if the human has not bought in again. */
  readonly expiresAt?: number;
  /** When the last hand finished (or the table opened), which is the moment of the last checkpoint. */
  readonly lastHandAt: number;
}

/**
 * A table between hands as the old tables kept it. It is used for rooms from before the journal,
 * and for the opening.
 */
export interface HandCheckpoint {
  readonly number: number;
  readonly button: number;
  /** When the hand finished. The next hand is dealt `handPauseMs` later. */
  readonly at: number;
  readonly seats: readonly { seat: number; stack: number; buyInTotal: number; hands: number }[];
}

/** The result of a rule: the next state, what to tell the sockets, and what to close. */
export type Outcome = EngineOutcome<CardsState>;
