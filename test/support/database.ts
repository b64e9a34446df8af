import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openDataSource, StatementMeter } from '@app/persistence';

const TEMPLATE = 'game_template';

function serverUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error('TEST_PG_URL is not set: run the tests through jest (test/global-setup.ts starts PostgreSQL)');
  return url;
}

/**
 * Creates a fresh database for one test file, cloned from a template that is migrated once per run.
 * It is real PostgreSQL with the real migrations, so nothing about persistence is mocked.
 */
export async function createTestDatabase(): Promise<string> {
  const admin = new Client({ connectionString: `${serverUrl()}/postgres` });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(4242)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE]);
    if (exists.rowCount === 0) {
      const building = `${TEMPLATE}_building`;
      await admin.query(`DROP DATABASE IF EXISTS ${building}`);
      await admin.query(`CREATE DATABASE ${building}`);
      const ds = await openDataSource({ url: `${serverUrl()}/${building}`, poolMax: 1 }, new StatementMeter());
      await ds.destroy();
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${TEMPLATE}`);
    }
    const name = `test_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
    return `${serverUrl()}/${name}`;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(4242)').catch(() => undefined);
    await admin.end();
  }
}

/**
 * Locks `table` of the database at `url` on a connection of its own, so that a write to the table
 * waits in PostgreSQL (a statement in flight, whose answer is not yet given). The returned function
 * releases the lock.
 */
export async function holdTable(url: string, table: string): Promise<() => Promise<void>> {
  const locker = new Client({ connectionString: url });
  await locker.connect();
  await locker.query(`BEGIN; LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return () => locker.end();
}

/** Whether a statement waits for a lock on `table` now. It reads this through `admin`, one of the test's connections. */
export async function writeWaitsOn(admin: Client, table: string): Promise<boolean> {
  return (await admin.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, [table])).rowCount === 1;
}

/** Creates a database with nothing in it, not even the migrations, for tests of what migrates a database. */
export async function createEmptyDatabase(): Promise<string> {
  const admin = new Client({ connectionString: `${serverUrl()}/postgres` });
  await admin.connect();
  try {
    const name = `empty_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    return `${serverUrl()}/${name}`;
  } finally {
    await admin.end();
  }
}
