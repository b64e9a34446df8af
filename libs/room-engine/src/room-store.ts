/**
 * What persistence does for a room (a port: libs/persistence implements it per game, the engine
 * holds no SQL). Each write is one statement; a batch's writes were merged by the rules first.
 */
export interface RoomStore<W, R> {
  /**
   * Commits the writes in order and hands back one result per write. Gives up (rejecting with a
   * StoreUnavailableError, having recorded nothing it did not confirm) once `timeoutMs` has passed.
   */
  commit(writes: readonly W[], timeoutMs: number): Promise<R[]>;

  /**
   * Records that the deadline due at `due` was taken late, at `at` (it passed while no process had
   * the room), so that a later replay takes it at the same moment. Written before the writes it led to.
   */
  recordLateDeadline(roomId: string, due: number, at: number, timeoutMs: number): Promise<void>;
}

/** PostgreSQL could not be reached, or did not answer in time: a retry later may succeed. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
