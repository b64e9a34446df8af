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
 * What persistence does for a room (a port: libs/persistence implements it per game, the engine
 * holds no SQL). Each write is one statement; a batch's writes were merged by the rules first.
 */
export interface RoomStore<W, R> {
  /**
   * Commits the writes, write `i` at position `seq + i`, and hands back one result per write.
   * The writes are sent at once, in order, on the room's ordered path (a later call's statements
   * follow this call's, even before these have answered). Gives up (rejecting with a
   * StoreUnavailableError, having recorded nothing it did not confirm) once `timeoutMs` has passed.
   */
  commit(writes: readonly W[], at: RoomPosition, timeoutMs: number): Promise<R[]>;

  /**
   * Records that the deadline due at `due` was taken late, at `at` (it passed while no process had
   * the room), so that a later replay takes it at the same moment. One statement, at `position`,
   * sent before the writes it led to.
   */
  recordLateDeadline(position: RoomPosition, due: number, at: number, timeoutMs: number): Promise<void>;
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
