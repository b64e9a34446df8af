import { Database } from '../database';

/** What an instance says of itself in the registry. */
export type InstanceHealth = 'ok' | 'draining' | 'stopped';

export interface InstanceBeat {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** When the instance started, in epoch ms. */
  readonly startedAt: number;
  readonly rooms: number;
  readonly health: InstanceHealth;
}

export interface InstanceRow extends InstanceBeat {
  /** How long before this beat the instance last wrote its row, by the database's clock. */
  readonly seenSecondsAgo: number;
}

/**
 * A room whose lease moved away from the instance that beat: another instance took it, or the beat
 * handed it to the instance that asked for it. `fence` is the lease's fence as the beat read it. A
 * copy of the room loaded here with a higher fence was taken again since then, so it stays.
 */
export interface LostLease {
  readonly id: string;
  readonly fence: number;
}

/** What a beat heard back. */
export interface BeatAnswer {
  /** Every instance's row, this one's included, by name. */
  readonly rows: InstanceRow[];
  /** The beat's time by the database's clock (epoch ms). The next beat passes it as `since`. */
  readonly at: number;
  /** Rooms whose lease moved away from this instance since `since`. */
  readonly lost: readonly LostLease[];
}

/** Rows of instances silent for this long are deleted by the next beat of any instance. */
export const FORGET_INSTANCE_AFTER = '1 day';
/**
 * An instance that asked for a room must have beaten this recently to be handed the room, which
 * shows that it asked while it was live.
 */
export const WANTING_INSTANCE_FRESH = '30 seconds';
/**
 * A beat reads the leases that moved away from its instance since its last answered beat, and
 * also this long before it, because a move whose statement ran this long before it committed was
 * invisible to that beat. The lookback is longer than any statement may run (COMMAND_TIMEOUT_MS is
 * at most 60 s). A move the beat still misses is caught by the fence at the room's next write.
 */
export const MOVED_LEASE_LOOKBACK = '1 minute';

export class InstanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * The heartbeat. One statement writes this instance's row, forgets instances silent for a day,
   * and reads every other row, so the registry costs each instance one round trip per beat and
   * nothing else. An instance's room leases live as long as its row is fresh (not stopped, and seen
   * within the lease), so writing the row renews all of them, however many there are. The same
   * statement hands over the rooms of this instance that another live instance asked for. It also
   * says which leases moved away from this instance since `since`, which is the `at` of the last
   * beat whose answer was heard (when unset, only the lookback applies). Each moved lease is found
   * through an index (migration 1764874800000), so what the beat reads grows with the leases that
   * moved, not with the rooms the instance holds. It runs on the cluster's own connections
   * (`Database.runForCluster`).
   */
  async beat(me: InstanceBeat, since?: number): Promise<BeatAnswer> {
    // A data-modifying CTE's effects are invisible to the statement's own reads. So the last
    // SELECT filters by age itself, this instance's row comes from RETURNING, and the rooms handed
    // over now come from \`asked\` (their marks, set by the trigger, are read by the next beat).
    const rows = await this.db.runForCluster<InstanceRow & { at: number; lost: LostLease[] }>(
      'InstanceRepository.beat',
      `WITH me AS (
         INSERT INTO instances (name, url, pid, started_at, last_seen, rooms, health)
         VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), now(), $5, $6)
         ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
           last_seen = now(), rooms = EXCLUDED.rooms, health = EXCLUDED.health
         RETURNING name, url, pid, started_at, rooms, health, last_seen
       ), forgotten AS (
         DELETE FROM instances WHERE name <> $1 AND last_seen < now() - interval '${FORGET_INSTANCE_AFTER}'
       ), asked AS (
         -- Rooms of ours another instance asked for (the proxy sends their traffic there now), by
         -- the index room_heads_wanted. Asked for by a live instance: the lease is given up here,
         -- and the rooms are let go like lost ones. Asked for by one that is not live any more:
         -- the ask is forgotten (it asks again if it is refused again), so that asks do not pile up.
         UPDATE room_heads h SET wanted_by = NULL,
           lease_owner = CASE WHEN h.wanted_by <> $1 AND EXISTS (
                                SELECT 1 FROM instances i WHERE i.name = h.wanted_by AND i.health = 'ok'
                                AND i.last_seen > now() - interval '${WANTING_INSTANCE_FRESH}')
                              THEN NULL ELSE h.lease_owner END
         WHERE h.lease_owner = $1 AND h.wanted_by IS NOT NULL
         RETURNING h.room_id, h.lease_fence, h.lease_owner IS NULL AS handed
       ), moved AS (
         -- Leases that moved away from this instance lately, by the index room_heads_moved; one
         -- this instance took back since is its own again, and is not lost.
         SELECT h.room_id, h.lease_fence FROM room_heads h
         WHERE h.moved_from = $1 AND h.moved_at > coalesce(to_timestamp($7::float8 / 1000), now()) - interval '${MOVED_LEASE_LOOKBACK}'
           AND h.lease_owner IS DISTINCT FROM $1
       )
       SELECT name, url, pid, (extract(epoch FROM started_at) * 1000)::float8 AS "startedAt", rooms, health,
              extract(epoch FROM now() - last_seen)::float8 AS "seenSecondsAgo",
              (extract(epoch FROM now()) * 1000)::float8 AS at,
              (SELECT coalesce(json_agg(json_build_object('id', l.room_id, 'fence', l.lease_fence::float8)), '[]')
               FROM (SELECT room_id, lease_fence FROM asked WHERE handed UNION ALL SELECT room_id, lease_fence FROM moved) AS l) AS lost
       FROM (SELECT * FROM me UNION ALL
             SELECT name, url, pid, started_at, rooms, health, last_seen FROM instances
             WHERE name <> $1 AND last_seen >= now() - interval '${FORGET_INSTANCE_AFTER}') AS everyone
       ORDER BY name`,
      [me.name, me.url, me.pid, me.startedAt, me.rooms, me.health, since ?? null],
    );
    // Every row carries the same time and list, and this instance's row is always among them, so read them from the first.
    const [first] = rows;
    return { rows: rows.map(({ at: _a, lost: _l, ...row }) => row), at: first.at, lost: first.lost };
  }
}
