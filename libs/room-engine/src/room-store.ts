import { ReplyFrame } from '@app/protocol';
import { Actor, FinishedGame, Signal } from './game-rules';

/**
 * Where a room's history stands: how many statements of the room PostgreSQL has applied. Each
 * statement a room sends names the position it extends, so that statements sent before the one
 * ahead of them has answered (pipelined) apply in the order they were decided or not at all.
 */
export interface RoomPosition {
  readonly roomId: string;
  /** The statements of this room applied before this one. */
  readonly seq: number;
  /** The fencing number of this process's lease on the room: a stale one is refused. */
  readonly fence: number;
}

/**
 * One input the room's rules took, as the journal keeps it: replaying the journal in order
 * through the same rules (deadlines that fell between inputs are taken again by the clock)
 * rebuilds the room, acknowledged replies included. All JSON.
 */
export type JournalInput =
  /** A command the rules accepted; `body` is the command as the rules parsed it. */
  | { readonly kind: 'command'; readonly at: number; readonly actor: Actor; readonly commandId: string; readonly body: unknown }
  /** A change asked for outside the socket protocol, by the rules' name for it. */
  | { readonly kind: 'proposal'; readonly at: number; readonly body: { readonly name: string; readonly args: unknown } }
  /** A presence change, or the room coming back in a fresh process. */
  | { readonly kind: 'signal'; readonly at: number; readonly body: Signal }
  /** A deadline that passed while no process had the room, taken at `at`. */
  | { readonly kind: 'late_deadline'; readonly at: number; readonly body: { readonly due: number } }
  /**
   * The room's clocks stopped at `at` because its writes failed, and held for `ms`: the deadlines
   * due before `at` are taken, then every clock moves on by `ms` (GameRules.shiftClocks).
   */
  | { readonly kind: 'clock_held'; readonly at: number; readonly body: { readonly ms: number } };

/** What a room's snapshot holds: its state, and the replies still owed to a resend of a command before it. */
export interface RoomSnapshot {
  readonly state: unknown;
  readonly replies: readonly SeatReply[];
}

export interface SeatReply {
  /** The reply memory's key (`seatKey`). */
  readonly seat: string;
  readonly reply: ReplyFrame;
}

/** One statement of a room: its new inputs, and with them what a boundary or an ending leaves. */
export interface JournalStep {
  readonly inputs: readonly JournalInput[];
  /** The room at this statement's position (after its inputs): a load starts here. */
  readonly snapshot?: { readonly at: number; readonly snapshot: RoomSnapshot };
  /** A game that finished in this step, with the game's kind. */
  readonly finished?: FinishedGame & { readonly game: string };
  /** The room is over: its reason (an expiry, the last seat leaving). */
  readonly closed?: string;
}

/** A room as the store brings it back: where its journal starts, and what came after. */
export interface Restored<S> {
  /** The state at the start of the journal (the latest snapshot, or the room as it opened). */
  readonly state: S;
  /** Replies owed to resends of commands before the journal starts. */
  readonly replies: readonly SeatReply[];
  /** What the room took since, in order. */
  readonly journal: readonly JournalInput[];
}

/**
 * What persistence does for a room (a port: libs/persistence implements it, the engine holds no
 * SQL). Each step is one statement.
 */
export interface RoomStore {
  /**
   * Commits the step at `at`. Steps are sent at once, in order, on the room's ordered path (a
   * later call's statement follows this call's, even before this one has answered). Gives up
   * (rejecting with a StoreUnavailableError, having recorded nothing it did not confirm) once
   * `timeoutMs` has passed.
   */
  append(step: JournalStep, at: RoomPosition, timeoutMs: number): Promise<void>;
}

/**
 * The store refused a step for what it holds (a text PostgreSQL cannot take, say): nothing was
 * recorded, and the same step would be refused again, so it is never retried. The room is let go
 * and loads again from what was committed, without whatever in its memory could not be stored.
 */
export class UnstorableStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnstorableStepError';
  }
}

/** PostgreSQL could not be reached, or did not answer in time: a retry later may succeed. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The database's history of the room is not the one this process holds (a statement whose
 * outcome was never heard did commit), or this process's lease on it is stale (another instance
 * took the room): nothing was recorded, and the room must be let go and loaded again from what
 * the database has, by whichever instance owns it.
 */
export class RoomOutOfOrderError extends StoreUnavailableError {
  constructor(readonly roomIds: readonly string[]) {
    super(`the database holds another history for room(s) ${roomIds.join(', ')}`);
    this.name = 'RoomOutOfOrderError';
  }
}
