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
}

const NO_LEASES: Leases = { rooms: [] };

/** Rows of instances silent for this long are deleted by the next beat of any instance. */
export const FORGET_INSTANCE_AFTER = '1 day';
/** An instance that asked for a room must have beaten this recently to be handed it (it asked while live). */
export const WANTING_INSTANCE_FRESH = '30 seconds';

export class InstanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * The heartbeat: one statement writes this instance's row, forgets instances silent for a
   * day, and reads every other row, so the registry costs each instance one round trip per
   * beat and nothing else. An instance's room leases live as long as its row is fresh (not
   * stopped, seen within the lease), so this one row renews all of them, whatever their number;
   * the statement also says which of the rooms it serves are another instance's now.
   */
  async beat(me: InstanceBeat, leases: Leases = NO_LEASES): Promise<{ rows: InstanceRow[]; renewed: Set<string> }> {
    // A data-modifying CTE's effects are invisible to the statement's own reads: the last
    // SELECT filters by age itself, and this instance's row comes from RETURNING.
    const rows = await this.db.run<InstanceRow & { lost: string[] }>(
      'InstanceRepository.beat',
      `WITH me AS (
         INSERT INTO instances (name, url, pid, started_at, last_seen, rooms, health)
         VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), now(), $5, $6)
         ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
           last_seen = now(), rooms = EXCLUDED.rooms, health = EXCLUDED.health
         RETURNING name, url, pid, started_at, rooms, health, last_seen
       ), forgotten AS (
         DELETE FROM instances WHERE name <> $1 AND last_seen < now() - interval '${FORGET_INSTANCE_AFTER}'
       ), handed AS (
         -- Rooms of ours another live instance asked for (the proxy sends their traffic there now):
         -- the lease is given up here, and the rooms are let go like lost ones.
         UPDATE room_heads h SET lease_owner = NULL, wanted_by = NULL
         WHERE h.room_id = ANY($7::uuid[]) AND h.lease_owner = $1 AND h.wanted_by IS NOT NULL AND h.wanted_by <> $1
           AND EXISTS (SELECT 1 FROM instances i WHERE i.name = h.wanted_by AND i.health = 'ok'
                       AND i.last_seen > now() - interval '${WANTING_INSTANCE_FRESH}')
         RETURNING h.room_id
       )
       SELECT name, url, pid, (extract(epoch FROM started_at) * 1000)::float8 AS "startedAt", rooms, health,
              extract(epoch FROM now() - last_seen)::float8 AS "seenSecondsAgo",
              -- This row is the renewal of every lease the instance holds; these it no longer holds.
              (SELECT coalesce(array_agg(l.id), '{}') FROM unnest($7::uuid[], $8::bigint[]) AS l(id, fence)
                 LEFT JOIN room_heads h ON h.room_id = l.id
                 WHERE h.room_id IS NULL OR h.lease_owner IS DISTINCT FROM $1 OR h.lease_fence <> l.fence)
                || (SELECT coalesce(array_agg(room_id), '{}') FROM handed) AS lost
       FROM (SELECT * FROM me UNION ALL
             SELECT name, url, pid, started_at, rooms, health, last_seen FROM instances
             WHERE name <> $1 AND last_seen >= now() - interval '${FORGET_INSTANCE_AFTER}') AS everyone
       ORDER BY name`,
      [me.name, me.url, me.pid, me.startedAt, me.rooms, me.health, leases.rooms.map((r) => r.id), leases.rooms.map((r) => r.fence)],
    );
    const lost = new Set(rows[0]?.lost ?? []);
    const renewed = new Set(leases.rooms.map((r) => r.id).filter((id) => !lost.has(id)));
    return { rows: rows.map(({ lost: _l, ...row }) => row), renewed };
  }
}
