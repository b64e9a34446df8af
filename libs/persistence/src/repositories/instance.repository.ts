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

/** Rows of instances silent for this long are deleted by the next beat of any instance. */
export const FORGET_INSTANCE_AFTER = '1 day';

export class InstanceRepository {
  constructor(private readonly db: Database) {}

  /**
   * The heartbeat: one statement writes this instance's row, forgets instances silent for a
   * day, and reads every other row, so the registry costs each instance one round trip per
   * beat and nothing else. Part 2 renews this instance's room leases in this same statement.
   */
  async beat(me: InstanceBeat): Promise<InstanceRow[]> {
    // A data-modifying CTE's effects are invisible to the statement's own reads: the last
    // SELECT filters by age itself, and this instance's row comes from RETURNING.
    return this.db.run<InstanceRow>(
      'InstanceRepository.beat',
      `WITH me AS (
         INSERT INTO instances (name, url, pid, started_at, last_seen, rooms, health)
         VALUES ($1, $2, $3, to_timestamp($4::float8 / 1000), now(), $5, $6)
         ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, pid = EXCLUDED.pid, started_at = EXCLUDED.started_at,
           last_seen = now(), rooms = EXCLUDED.rooms, health = EXCLUDED.health
         RETURNING name, url, pid, started_at, rooms, health, last_seen
       ), forgotten AS (
         DELETE FROM instances WHERE name <> $1 AND last_seen < now() - interval '${FORGET_INSTANCE_AFTER}'
       )
       SELECT name, url, pid, (extract(epoch FROM started_at) * 1000)::float8 AS "startedAt", rooms, health,
              extract(epoch FROM now() - last_seen)::float8 AS "seenSecondsAgo"
       FROM (SELECT * FROM me UNION ALL
             SELECT name, url, pid, started_at, rooms, health, last_seen FROM instances
             WHERE name <> $1 AND last_seen >= now() - interval '${FORGET_INSTANCE_AFTER}') AS everyone
       ORDER BY name`,
      [me.name, me.url, me.pid, me.startedAt, me.rooms, me.health],
    );
  }
}
