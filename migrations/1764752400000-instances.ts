import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The instance registry (PROTOCOL.md section 10): one row per server process sharing this
 * database, written only by that instance's heartbeat (apps/game-server/src/cluster), so that
 * whichever instance serves the console can show them all. Part 2 adds room leases beside it.
 */
export class Instances1764752400000 implements MigrationInterface {
  name = 'Instances1764752400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE instances (
        name        text PRIMARY KEY,
        url         text NOT NULL,
        pid         integer NOT NULL,
        started_at  timestamptz NOT NULL,
        -- The database's clock, never the instance's: ages are compared on one clock.
        last_seen   timestamptz NOT NULL DEFAULT now(),
        rooms       integer NOT NULL,
        health      text NOT NULL CHECK (health IN ('ok', 'draining', 'stopped'))
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE instances');
  }
}
