import { ReplyFrame } from '@app/protocol';
import { Actor, FinishedGame, Signal } from './game-rules';

/**
 * Where a room's history stands: how many of the room's statements PostgreSQL has applied. Each
 * statement a room sends names the position it extends. So statements that are sent before the one
 * ahead of them has answered (pipelined) apply in the order they were decided, or not at all.
 */
export interface RoomPosition {
  readonly roomId: string;
  /** How many of this room's statements were applied before this one. */
  readonly seq: number;
  /** The fencing number of this process's lease on the room. The database refuses a stale one. */
  readonly fence: number;
}

/**
 * One input the room's rules took, as the journal keeps it, all in JSON. Replaying the journal in
 * order through the same rules rebuilds the room, acknowledged replies included. The deadlines that
 * fell between inputs are taken again by the clock.
 */
export type JournalInput =
  /** A command the rules accepted. `body` is the command as the rules parsed it. */
  | { readonly kind: 'command'; readonly at: number; readonly actor: Actor; readonly commandId: string; readonly body: unknown }
  /** A change that arrived outside the socket protocol, under the rules' name for it. */
  | { readonly kind: 'proposal'; readonly at: number; readonly body: { readonly name: string; readonly args: unknown } }
  /** A presence change, or the room coming back in a fresh process. */
  | { readonly kind: 'signal'; readonly at: number; readonly body: Signal }
  /** A deadline that passed while no process had the room, taken at `at`. */
  | { readonly kind: 'late_deadline'; readonly at: number; readonly body: { readonly due: number } }
  /**
   * The room's clocks stopped at `at` because its writes failed, and they were held for `ms`. A
   * replay takes the deadlines due before `at`, then moves every clock on by `ms`
   * (GameRules.shiftClocks).
   */
  | { readonly kind: 'clock_held'; readonly at: number; readonly body: { readonly ms: number } };

/** What a room's snapshot holds: its state, and the replies it must keep for resends of commands taken before it. */
export interface RoomSnapshot {
  readonly state: unknown;
  readonly replies: readonly SeatReply[];
}

export interface SeatReply {
  /** The reply memory's key (`seatKey`). */
  readonly seat: string;
  readonly reply: ReplyFrame;
}

/** One statement of a room: its new inputs, and with them whatever a boundary or an ending leaves. */
export interface JournalStep {
  readonly inputs: readonly JournalInput[];
  /** The room at this statement's position, after its inputs. A later load starts from here. */
  readonly snapshot?: { readonly at: number; readonly snapshot: RoomSnapshot };
  /** A game that finished in this step, with the game's kind. */
  readonly finished?: FinishedGame & { readonly game: string };
  /** Set when the room is over, to the reason (an expiry, the last seat leaving). */
  readonly closed?: string;
}

/** A room as the store brings it back: the state its journal starts from, and what came after. */
export interface Restored<S> {
  /** The state at the start of the journal (the latest snapshot, or the room as it opened). */
  readonly state: S;
  /** The replies kept for resends of commands taken before the journal starts. */
  readonly replies: readonly SeatReply[];
  /** The inputs the room took since then, in order. */
  readonly journal: readonly JournalInput[];
}

/**
 * What persistence does for a room. This is a port: libs/persistence implements it, so the engine
 * holds no SQL. Each step is one statement.
 */
export interface RoomStore {
  /**
   * Commits the step at `at`. Steps are sent at once, in order, on the room's ordered path: a later
   * call's statement follows this call's, even before this one has answered. Once `timeoutMs` has
   * passed, it gives up and rejects with a StoreUnavailableError, having recorded nothing it did
   * not confirm.
   */
  append(step: JournalStep, at: RoomPosition, timeoutMs: number): Promise<void>;
}

/**
 * The store refused a step because of what it holds (say, a text PostgreSQL cannot take). Nothing
 * was recorded, and the same step would be refused again, so it is never retried. The room is let
 * go and loads again from what was committed, without whatever in its memory could not be stored.
 */
export class UnstorableStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnstorableStepError';
  }
}

/** PostgreSQL could not be reached, or did not answer in time. A retry later may succeed. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The database's history of the room is not the one this process holds (a statement whose outcome
 * was never heard did commit), or this process's lease on the room is stale (another instance took
 * the room). Nothing was recorded. The room must be let go, and whichever instance owns it loads it
 * again from what the database has.
 */
export class RoomOutOfOrderError extends StoreUnavailableError {
  constructor(readonly roomIds: readonly string[]) {
    super(`the database holds another history for room(s) ${roomIds.join(', ')}`);
    this.name = 'RoomOutOfOrderError';
  }
}
