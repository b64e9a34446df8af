import { Database } from '../database';

/** One refused command as it is written: the room's id, and who sent what, and why it was refused. */
export interface RefusalRow {
  readonly roomId: string;
  /** When the command arrived, in epoch ms. */
  readonly atMs: number;
  /** Who sent it: player, host, spectator or operator. */
  readonly by: string;
  readonly seat: string | null;
  readonly name: string | null;
  readonly type: string;
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

/** A stored refusal, with its place in the keyset: its exact time in microseconds, and its id. */
export interface StoredRefusal extends Omit<RefusalRow, 'roomId'> {
  readonly id: string;
  /** Microseconds since the epoch, as text, which stays exact where a double would round. */
  readonly atUs: string;
}

/** Where a page starts: after this refusal, going back in time. */
export interface RefusalKey {
  readonly atUs: string;
  readonly id: string;
}

/** The most rows the pruning deletes in one statement, so that a flush stays short however much has expired. */
export const PRUNE_ROWS_PER_STATEMENT = 5000;

const COLUMNS = `id::text AS id, (extract(epoch FROM at) * 1000)::float8 AS "atMs", (extract(epoch FROM at) * 1000000)::bigint::text AS "atUs",
  by_role AS by, seat, name, type, code, status, message`;

/**
 * The refused commands that operators read in the console (`refused_commands`), kept for
 * `keptDays`. The refusal recorder writes them in batches, never on a command's path. Each write
 * also deletes up to PRUNE_ROWS_PER_STATEMENT rows past the window, and reads never show such a
 * row.
 */
export class RefusalRepository {
  constructor(private readonly db: Database) {}

  /** Writes the rows and deletes the oldest expired rows, in one statement. */
  async record(rows: readonly RefusalRow[], keptDays: number, timeoutMs?: number): Promise<void> {
    await this.db.run(
      'RefusalRepository.record',
      `WITH pruned AS (
         DELETE FROM refused_commands WHERE id IN (
           SELECT id FROM refused_commands WHERE at < now() - make_interval(days => $2::int) ORDER BY at LIMIT ${PRUNE_ROWS_PER_STATEMENT})
       )
       INSERT INTO refused_commands (room_id, at, by_role, seat, name, type, code, status, message)
       SELECT r."roomId", timestamptz 'epoch' + r."atMs" * interval '1 millisecond', r.by, r.seat, r.name, r.type, r.code, r.status, r.message
       FROM jsonb_to_recordset($1::jsonb)
            AS r("roomId" uuid, "atMs" float8, by text, seat text, name text, type text, code text, status smallint, message text)`,
      [JSON.stringify(rows), keptDays],
      timeoutMs,
    );
  }

  /** Deletes up to PRUNE_ROWS_PER_STATEMENT rows older than `keptDays`, and returns how many it deleted. */
  async prune(keptDays: number, timeoutMs?: number): Promise<number> {
    const rows = await this.db.run<{ n: number }>(
      'RefusalRepository.prune',
      `WITH pruned AS (
         DELETE FROM refused_commands WHERE id IN (
           SELECT id FROM refused_commands WHERE at < now() - make_interval(days => $1::int) ORDER BY at LIMIT ${PRUNE_ROWS_PER_STATEMENT})
         RETURNING 1
       ) SELECT count(*)::int AS n FROM pruned`,
      [keptDays],
      timeoutMs,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Reads, in one statement, the latest room with this code (open, or the last one closed) and one
   * page of its refusals within the window, newest first, starting after `after` when given.
   * Returns undefined when no room ever had the code.
   */
  async page(
    code: string,
    keptDays: number,
    limit: number,
    after?: RefusalKey,
    timeoutMs?: number,
  ): Promise<{ roomId: string; refusals: StoredRefusal[] } | undefined> {
    const rows = await this.db.run<StoredRefusal & { roomId: string; found: boolean }>(
      after ? 'RefusalRepository.pageAfter' : 'RefusalRepository.page',
      `WITH room AS (SELECT id FROM rooms WHERE code = $1::char(6) ORDER BY created_at DESC LIMIT 1)
       SELECT room.id AS "roomId", x.* FROM room LEFT JOIN LATERAL (
         SELECT ${COLUMNS} FROM refused_commands
         WHERE room_id = room.id AND at > now() - make_interval(days => $2::int)
           ${after ? `AND (at, id) < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', $5::bigint)` : ''}
         ORDER BY at DESC, id DESC LIMIT $3
       ) x ON true`,
      after ? [code, keptDays, limit, after.atUs, after.id] : [code, keptDays, limit],
      timeoutMs,
    );
    if (rows.length === 0) return undefined;
    const roomId = rows[0].roomId;
    return { roomId, refusals: rows.filter((r) => r.id !== null).map(({ roomId: _r, found: _f, ...r }) => r) };
  }
}
