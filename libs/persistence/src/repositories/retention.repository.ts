import { Database } from '../database';

/**
 * What one pruning statement of this repository removed, by table. `room_decks` counts deck copies
 * cleared from `rooms.deck`; `deck_images` counts images of deleted decks once no open room shows
 * them. Other repositories prune tables of their own with the same shape of result.
 */
export type RetentionTable = 'room_journal' | 'room_snapshots' | 'room_decks' | 'finished_games' | 'rooms' | 'room_heads' | 'deck_images';
export type Removed<Table extends string = RetentionTable> = Partial<Record<Table, number>>;

/** One batch's result: what it removed, and how many rows or rooms it took of the `limit` it was given. */
export interface PruneBatch<Table extends string = RetentionTable> {
  readonly removed: Removed<Table>;
  /** How many rows (or rooms) the batch selected. Fewer than its limit means that nothing more is due now. */
  readonly taken: number;
}

// The cut-off of a window given in seconds. PostgreSQL computes it, so that it is compared with
// times PostgreSQL wrote itself (closed_at, finished_at).
const BEFORE = `now() - make_interval(secs => $1::float8)`;
// The predicate of rooms_closed_unpruned, spelled as the index is, so that a generic plan uses it.
const CLOSED_UNPRUNED = `r.closed_at IS NOT NULL AND r.pruned_at IS NULL`;

/**
 * Removes what is no longer needed, in bounded batches, off every command's path: the journal,
 * snapshot and deck copy of a room closed longer ago than the results window, finished games past
 * their own retention, and the row of a pruned room once no finished game names it. Each method is
 * one statement that removes at most `limit` rows (or rooms), oldest first, on the upkeep's own
 * connection. Several instances may run them at once: each statement takes its rows with `FOR
 * UPDATE SKIP LOCKED`, so two batches never wait for each other nor remove a row twice.
 */
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /** Removes journal rows of closed rooms past the window, the oldest rooms' rows first. */
  async pruneClosedJournals(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch> {
    const [row] = await this.db.runForUpkeep<{ taken: number; journal: number }>(
      'RetentionRepository.pruneClosedJournals',
      `WITH due AS (
         SELECT j.room_id, j.seq, j.idx FROM rooms r JOIN room_journal j ON j.room_id = r.id
         WHERE ${CLOSED_UNPRUNED} AND r.closed_at < ${BEFORE}
         ORDER BY r.closed_at LIMIT $2
         FOR UPDATE OF j SKIP LOCKED
       ), gone AS (
         DELETE FROM room_journal j USING due WHERE j.room_id = due.room_id AND j.seq = due.seq AND j.idx = due.idx RETURNING 1
       )
       SELECT (SELECT count(*) FROM due)::int AS taken, (SELECT count(*) FROM gone)::int AS journal`,
      [windowSeconds, limit],
      timeoutMs,
    );
    return { taken: row.taken, removed: { room_journal: row.journal } };
  }

  /**
   * Prunes closed rooms past the window whose journal is gone. Their snapshot goes, their deck copy
   * is cleared, and they are marked pruned. Such a room is never brought back, and its code answers
   * 404.
   */
  async pruneClosedRooms(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch> {
    const [row] = await this.db.runForUpkeep<{ taken: number; decks: number; snapshots: number }>(
      'RetentionRepository.pruneClosedRooms',
      `WITH due AS (
         SELECT r.id, r.deck IS NOT NULL AS copied FROM rooms r
         WHERE ${CLOSED_UNPRUNED} AND r.closed_at < ${BEFORE}
           -- A room whose journal is still being removed waits for the next batch.
           AND NOT EXISTS (SELECT 1 FROM room_journal j WHERE j.room_id = r.id)
         ORDER BY r.closed_at LIMIT $2
         FOR UPDATE OF r SKIP LOCKED
       ), marked AS (
         UPDATE rooms r SET pruned_at = now(), deck = NULL FROM due WHERE r.id = due.id
       ), snapshots AS (
         DELETE FROM room_snapshots s USING due WHERE s.room_id = due.id RETURNING 1
       )
       SELECT (SELECT count(*) FROM due)::int AS taken, (SELECT count(*) FROM due WHERE copied)::int AS decks,
              (SELECT count(*) FROM snapshots)::int AS snapshots`,
      [windowSeconds, limit],
      timeoutMs,
    );
    return { taken: row.taken, removed: { room_snapshots: row.snapshots, room_decks: row.decks } };
  }

  /**
   * Pictures taken out of their decks, or of deleted decks, that an open room showed then
   * (`orphaned_at`), once no open room's deck copy shows them any more. The oldest first.
   */
  async pruneOrphanedImages(limit: number, timeoutMs?: number): Promise<PruneBatch> {
    const [row] = await this.db.runForUpkeep<{ taken: number }>(
      'RetentionRepository.pruneOrphanedImages',
      `WITH due AS (
         SELECT i.id FROM deck_images i
         WHERE i.orphaned_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM rooms r
                           WHERE r.deck_id = i.deck_id AND r.deck_hash IS NULL AND r.closed_at IS NULL
                             AND r.deck @> jsonb_build_array(jsonb_build_object('image', i.id::text)))
         ORDER BY i.orphaned_at LIMIT $1
         FOR UPDATE OF i SKIP LOCKED
       ), gone AS (
         DELETE FROM deck_images i USING due WHERE i.id = due.id RETURNING 1
       )
       SELECT count(*)::int AS taken FROM gone`,
      [limit],
      timeoutMs,
    );
    return { taken: row.taken, removed: { deck_images: row.taken } };
  }

  /** Removes finished games older than their retention, the oldest first. */
  async pruneFinishedGames(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch> {
    const [row] = await this.db.runForUpkeep<{ taken: number }>(
      'RetentionRepository.pruneFinishedGames',
      `WITH due AS (
         SELECT id FROM finished_games WHERE finished_at < ${BEFORE}
         ORDER BY finished_at LIMIT $2
         FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM finished_games f USING due WHERE f.id = due.id RETURNING 1
       )
       SELECT count(*)::int AS taken FROM gone`,
      [windowSeconds, limit],
      timeoutMs,
    );
    return { taken: row.taken, removed: { finished_games: row.taken } };
  }

  /**
   * Removes pruned rooms closed longer ago than the finished games' retention, which therefore have
   * no finished game left. Their row and head go.
   */
  async pruneRoomRows(windowSeconds: number, limit: number, timeoutMs?: number): Promise<PruneBatch> {
    const [row] = await this.db.runForUpkeep<{ taken: number; heads: number }>(
      'RetentionRepository.pruneRoomRows',
      `WITH due AS (
         SELECT r.id FROM rooms r
         WHERE r.pruned_at IS NOT NULL AND r.closed_at < ${BEFORE}
           AND NOT EXISTS (SELECT 1 FROM finished_games f WHERE f.room_id = r.id)
         ORDER BY r.closed_at LIMIT $2
         FOR UPDATE OF r SKIP LOCKED
       ), heads AS (
         DELETE FROM room_heads h USING due WHERE h.room_id = due.id RETURNING 1
       ), gone AS (
         DELETE FROM rooms r USING due WHERE r.id = due.id RETURNING 1
       )
       SELECT (SELECT count(*) FROM gone)::int AS taken, (SELECT count(*) FROM heads)::int AS heads`,
      [windowSeconds, limit],
      timeoutMs,
    );
    return { taken: row.taken, removed: { rooms: row.taken, room_heads: row.heads } };
  }
}
