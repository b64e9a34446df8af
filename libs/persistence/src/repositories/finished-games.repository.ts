import { Database } from '../database';

/** A finished game as the console lists it: its record, its room's code, and the times its start may be derived from. */
export interface FinishedGameRow {
  readonly id: string;
  readonly roomId: string;
  readonly code: string;
  readonly game: string;
  readonly gameNo: number;
  readonly summary: unknown;
  /** When the game finished, in epoch ms. */
  readonly finishedAt: number;
  /** Microseconds since the epoch, as text. This is the game's exact position in the keyset. */
  readonly finishedUs: string;
  /** When the room opened (epoch ms). */
  readonly roomOpenedAt: number;
  /** When the room's previous game finished (epoch ms), if it had one. */
  readonly previousFinishedAt: number | null;
}

/** Where a page starts: after this game, going back in time. */
export interface FinishedKey {
  readonly finishedUs: string;
  readonly id: string;
}

export interface FinishedQuery {
  /** A room code (normalized). When given, only the games of rooms with that code are listed. */
  readonly code?: string;
  /** Only games that finished at or after this time (epoch ms). */
  readonly from?: number;
  /** Only games that finished before this time (epoch ms). */
  readonly to?: number;
  readonly after?: FinishedKey;
  readonly limit: number;
}

const COLUMNS = `f.id, f.room_id AS "roomId", trim(r.code) AS code, f.game, f.game_no AS "gameNo", f.summary,
  (extract(epoch FROM f.finished_at) * 1000)::float8 AS "finishedAt", (extract(epoch FROM f.finished_at) * 1000000)::bigint::text AS "finishedUs",
  (extract(epoch FROM r.created_at) * 1000)::float8 AS "roomOpenedAt",
  (SELECT (extract(epoch FROM max(p.finished_at)) * 1000)::float8 FROM finished_games p WHERE p.room_id = f.room_id AND p.game_no < f.game_no) AS "previousFinishedAt"`;

// Every bound is always given (infinity when it is open), so that each statement has one plan:
// the time index read backwards from the cursor, or, with a code, that code's rooms.
const BOUNDS = `f.finished_at >= coalesce(to_timestamp($1::float8 / 1000), '-infinity')
  AND f.finished_at < coalesce(to_timestamp($2::float8 / 1000), 'infinity')
  AND (f.finished_at, f.id) < (coalesce(timestamptz 'epoch' + $3::bigint * interval '1 microsecond', 'infinity'), coalesce($4::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))`;

/**
 * Finished games for operators (`GET /admin/api/finished`), newest first, from `finished_games`
 * and their rooms. The public results window does not apply: a row is shown for as long as it
 * exists.
 */
export class FinishedGamesRepository {
  constructor(private readonly db: Database) {}

  async page(q: FinishedQuery, timeoutMs?: number): Promise<FinishedGameRow[]> {
    const bounds = [q.from ?? null, q.to ?? null, q.after?.finishedUs ?? null, q.after?.id ?? null, q.limit];
    if (q.code !== undefined) {
      return this.db.run<FinishedGameRow>(
        'FinishedGamesRepository.pageOfCode',
        `SELECT ${COLUMNS} FROM rooms r JOIN finished_games f ON f.room_id = r.id
         WHERE r.code = $6::char(6) AND ${BOUNDS}
         ORDER BY f.finished_at DESC, f.id DESC LIMIT $5`,
        [...bounds, q.code],
        timeoutMs,
      );
    }
    return this.db.run<FinishedGameRow>(
      'FinishedGamesRepository.page',
      `SELECT ${COLUMNS} FROM finished_games f JOIN rooms r ON r.id = f.room_id
       WHERE ${BOUNDS}
       ORDER BY f.finished_at DESC, f.id DESC LIMIT $5`,
      bounds,
      timeoutMs,
    );
  }

  /** One finished game by its id, however old. */
  async one(id: string, timeoutMs?: number): Promise<FinishedGameRow | undefined> {
    const [row] = await this.db.run<FinishedGameRow>(
      'FinishedGamesRepository.one',
      `SELECT ${COLUMNS} FROM finished_games f JOIN rooms r ON r.id = f.room_id WHERE f.id = $1::uuid`,
      [id],
      timeoutMs,
    );
    return row;
  }
}
