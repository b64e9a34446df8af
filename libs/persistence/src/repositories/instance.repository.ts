import { Database } from '../database';

/** What an instance says of itself in the registry. */
export type InstanceHealth = 'ok' | 'draining' | 'stopped';

export interface InstanceBeat {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly rooms: number;
  readonly health: InstanceHealth;
}

export interface InstanceRow extends InstanceBeat {
  /** How long before this beat the instance last wrote its row, by the database's clock. */
  readonly seenSecondsAgo: number;
}

/** The room leases an instance holds, to renew in its beat: each room with the fence its lease gave. */
export interface Leases {
  readonly rooms: readonly { readonly id: string; readonly fence: number }[];
  /** How long a renewed lease lasts. */
  readonly ms: number;
}

const NO_LEASES: Leases = { rooms: [], ms: 0 };

/** Rows of instances silent for this long are deleted by the next beat of any instance. */
export const FORGET_INSTANCE_AFTER = '1 day';

export class InstanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * The heartbeat: one statement writes this instance's row, forgets instances silent for a
   * day, and reads every other row, so the registry costs each instance one round trip per
   * beat and nothing else. The same statement renews every room lease the instance holds, and
   * says which it renewed: a room missing from them is another instance's now.
   */
  async beat(me: InstanceBeat, leases: Leases = NO_LEASES): Promise<{ rows: InstanceRow[]; renewed: Set<string>; busy: Set<string> }> {
    // A data-modifying CTE's effects are invisible to the statement's own reads: the last
    // SELECT filters by age itself, and this instance's row comes from RETURNING.
    const rows = await this.db.run<InstanceRow & { renewed: string[]; busy: string[] }>(
      'InstanceRepository.beat',
      `WITH free AS (
         -- A room whose row a commit of its own holds right now is left for the next beat: the
         -- heartbeat never waits for a room's statement, nor makes one wait long.
         SELECT room_id AS id FROM room_heads WHERE room_id = ANY($7::uuid[]) FOR NO KEY UPDATE SKIP LOCKED
       ), renewed AS (
         -- The room leases this instance still holds, each with the fence it was given, last longer.
         UPDATE room_heads h SET lease_expires = now() + make_interval(secs => $9::float8 / 1000)
         FROM unnest($7::uuid[], $8::bigint[]) AS l(id, fence)
         WHERE h.room_id = l.id AND h.room_id IN (SELECT id FROM free) AND h.lease_owner = $1 AND h.lease_fence = l.fence
         RETURNING h.room_id AS id
       ), me AS (
         INSERT INTO instances (name, url, pid, started_at, last_seen, rooms, health)
         VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), now(), $5, $6)
         ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
           last_seen = now(), rooms = EXCLUDED.rooms, health = EXCLUDED.health
         RETURNING name, url, pid, started_at, rooms, health, last_seen
       ), forgotten AS (
         DELETE FROM instances WHERE name <> $1 AND last_seen < now() - interval '${FORGET_INSTANCE_AFTER}'
       )
       SELECT name, url, pid, (extract(epoch FROM started_at) * 1000)::float8 AS "startedAt", rooms, health,
              extract(epoch FROM now() - last_seen)::float8 AS "seenSecondsAgo",
              (SELECT coalesce(array_agg(id), '{}') FROM renewed) AS renewed,
              (SELECT coalesce(array_agg(i), '{}') FROM unnest($7::uuid[]) AS i WHERE i NOT IN (SELECT id FROM free)) AS busy
       FROM (SELECT * FROM me UNION ALL
             SELECT name, url, pid, started_at, rooms, health, last_seen FROM instances
             WHERE name <> $1 AND last_seen >= now() - interval '${FORGET_INSTANCE_AFTER}') AS everyone
       ORDER BY name`,
      [me.name, me.url, me.pid, me.startedAt, me.rooms, me.health, leases.rooms.map((r) => r.id), leases.rooms.map((r) => r.fence), leases.ms],
    );
    const renewed = new Set(rows[0]?.renewed ?? []);
    const busy = new Set(rows[0]?.busy ?? []);
    return { rows: rows.map(({ renewed: _r, busy: _b, ...row }) => row), renewed, busy };
  }
}
