/**
 * The condition "this room is still open", for a statement that finds its room by id. It is
 * `closed_at IS NULL` spelled so that the partial index `rooms_open_code` (`WHERE closed_at IS
 * NULL`) cannot serve the lookup. With the plain spelling, a generic plan made while `rooms` was
 * small (every lane prepares its statements once, and a fresh database has no statistics) scanned
 * that whole index and filtered by id: about 1,400 pages per game started with 1,000 open rooms,
 * and growing with them. With this spelling, only the primary key can find the row.
 */
export const OPEN_ROOM = 'num_nulls(closed_at) = 1';
