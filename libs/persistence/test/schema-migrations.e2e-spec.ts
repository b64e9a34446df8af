import { Client } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  Database,
  DatabaseUnavailableError,
  migrate,
  migrationStates,
  MIGRATIONS_LOCK,
  openDataSource,
  StatementMeter,
} from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createEmptyDatabase, createTestDatabase } from '../../../test/support/database';

/** A data migration that takes longer than any command may. The commands' limit must not cancel it. */
class SlowDataMigration1799999999000 implements MigrationInterface {
  name = 'SlowDataMigration1799999999000';
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('SELECT pg_sleep(0.6)');
  }
  async down(): Promise<void> {}
}

async function withAdmin<T>(url: string, body: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    return await body(admin);
  } finally {
    await admin.end();
  }
}

/** Waits until `n` sessions wait for the migrations' lock. pg_locks names an advisory bigint key by its two halves. */
async function untilWaitingForLock(admin: Client, n: number): Promise<void> {
  const sql = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
               AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`;
  for (const deadline = performance.now() + 10_000; (await admin.query(sql, [MIGRATIONS_LOCK])).rows[0].n < n;) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${n} session(s) to wait for the migrations' lock`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('migrations', () => {
  it("run without the commands' statement timeout, even where the database sets one, while the commands keep theirs", async () => {
    const url = await createTestDatabase();
    await withAdmin(url, (admin) => admin.query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET statement_timeout = '100ms'`));
    const meter = new StatementMeter();
    const dataSource = await openDataSource(
      { url, poolMax: 1, migrations: [...MIGRATIONS, SlowDataMigration1799999999000], statementTimeoutMs: 200 },
      meter,
    );
    const db = new Database(dataSource, meter, 200, 1);
    try {
      expect(await db.run('Test.lastMigration', 'SELECT name FROM migrations ORDER BY id DESC LIMIT 1', [], 5_000)).toEqual([
        { name: 'SlowDataMigration1799999999000' },
      ]);
      // A command's statement that runs as long as the migration did is cancelled by PostgreSQL itself.
      const refused = await db.run('Test.slow', 'SELECT pg_sleep(0.6)', [], 5_000).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(DatabaseUnavailableError);
      expect((refused as Error).message).toMatch(/canceling statement due to statement timeout/);
    } finally {
      await db.close();
      await dataSource.destroy();
    }
  });

  it('wait for the process that holds their lock, and then find nothing left to apply', async () => {
    const url = await createEmptyDatabase();
    const options = { url, migrations: MIGRATIONS };
    await withAdmin(url, async (admin) => {
      await admin.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
      const waits: string[] = [];
      const first = migrate({ ...options, log: (msg) => waits.push(msg) });
      await untilWaitingForLock(admin, 1);
      expect(waits).toEqual(['another process is migrating this database; waiting for it to finish']);
      // Nothing was applied while the lock was held elsewhere.
      expect((await admin.query(`SELECT to_regclass('migrations') AS t`)).rows).toEqual([{ t: null }]);
      await admin.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK]);
      expect(await first).toEqual(MIGRATIONS.map((m) => m.name));
      expect(await migrate(options)).toEqual([]);
      expect((await migrationStates(options)).every((m) => m.state === 'applied')).toBe(true);
      // The lock is free again, so the next process need not wait.
      expect((await admin.query('SELECT pg_try_advisory_lock($1) AS free', [MIGRATIONS_LOCK])).rows).toEqual([{ free: true }]);
    });
  });

  it('say which are applied, which are pending, and which the database has from another build', async () => {
    const url = await createEmptyDatabase();
    expect(await migrationStates({ url, migrations: MIGRATIONS })).toEqual(MIGRATIONS.map((m) => ({ name: m.name, state: 'pending' })));
    // Reading the state creates nothing.
    await withAdmin(url, async (admin) => expect((await admin.query(`SELECT to_regclass('migrations') AS t`)).rows).toEqual([{ t: null }]));
    await migrate({ url, migrations: MIGRATIONS.slice(0, 3) });
    expect(await migrationStates({ url, migrations: MIGRATIONS.slice(0, 2) })).toEqual([
      ...MIGRATIONS.slice(0, 2).map((m) => ({ name: m.name, state: 'applied' })),
      { name: MIGRATIONS[2].name, state: 'unknown' },
    ]);
    expect((await migrationStates({ url, migrations: MIGRATIONS })).filter((m) => m.state === 'pending')).toHaveLength(
      MIGRATIONS.length - 3,
    );
  });
});
