import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { HttpApi } from '@app/bot-kit';
import { MIGRATIONS_LOCK } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createEmptyDatabase } from '../../../test/support/database';
import { ProgramRun, runProgram } from '../../../test/support/programs';
import { requireBuiltServer, ServerProcess } from '../../../test/support/server-process';
import { waitFor } from './support';

// `npm run db -- status | migrate` and the migrations' lock, from outside: the built command and
// two real server processes against one fresh database. The lock itself is tested in
// libs/persistence/test/schema-migrations.e2e-spec.ts.

const REPO = resolve(__dirname, '../../..');
const DB_COMMAND = join(REPO, 'dist/apps/game-server/apps/game-server/src/db.js');
const NAMES = MIGRATIONS.map((m) => m.name);

/** Runs the built `db` command with the server's environment and resolves with what it said. */
function db(args: string[], env: Record<string, string>): Promise<ProgramRun> {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: mkdtempSync(join(tmpdir(), 'db-command-')) };
  return runProgram(process.execPath, [DB_COMMAND, ...args], { cwd: REPO, env: { ...base, ...env }, timeoutMs: 20_000 });
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('npm run db', () => {
  beforeAll(() => requireBuiltServer());

  it('shows every migration as pending, applies them in order, then shows them applied and has nothing left to apply', async () => {
    const env = { DATABASE_URL: await createEmptyDatabase() };
    const before = await db(['status'], env);
    expect(before).toMatchObject({ code: 0, stderr: '' });
    expect(before.stdout.trim().split('\n')).toEqual([...NAMES.map((n) => `pending  ${n}`), `0 applied, ${NAMES.length} pending`]);
    // Showing changed nothing: no migrations table yet.
    expect(await query(env.DATABASE_URL, `SELECT to_regclass('migrations') AS t`)).toEqual([{ t: null }]);

    const applied = await db(['migrate'], env);
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(applied.stdout.trim().split('\n')).toEqual([...NAMES.map((n) => `applied  ${n}`), `${NAMES.length} applied, 0 pending`]);
    expect((await db(['status'], env)).stdout.trim().split('\n')).toEqual([
      ...NAMES.map((n) => `applied  ${n}`),
      `${NAMES.length} applied, 0 pending`,
    ]);
    expect(await db(['migrate'], env)).toMatchObject({ code: 0, stdout: `nothing to apply: ${NAMES.length} applied, 0 pending\n` });
  });

  it('refuses a command it does not know, with its usage and exit 2, before it reaches any database', async () => {
    for (const args of [[], ['upgrade'], ['status', 'now']]) {
      const refused = await db(args, { DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
      expect(refused).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr).toMatch(/^usage: npm run db -- status \| migrate\n/);
    }
  });

  it('refuses an environment the server would refuse, naming the variable, with exit 1', async () => {
    const refused = await db(['status'], { DATABASE_URL: 'mysql://db/game' });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain("DATABASE_URL='mysql://db/game': expected a postgres:// or postgresql:// URL");
  });
});

describe('two server processes started together on one fresh database', () => {
  const servers: ServerProcess[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.dispose()));
  });

  it('both wait at the migrations lock while it is held elsewhere, then both start, and every migration is applied once', async () => {
    const databaseUrl = await createEmptyDatabase();
    const admin = new Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // Held here until both are at the migrations, so that they reach them together for sure.
      await admin.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
      for (const name of ['first', 'second']) servers.push(await ServerProcess.create({ databaseUrl, env: { INSTANCE_NAME: name } }));
      const started = servers.map((s) => s.start());
      const waiting = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`;
      await waitFor(
        async () => (await admin.query(waiting, [MIGRATIONS_LOCK])).rows[0].n === 2,
        'both servers to wait for the migrations lock',
        20_000,
      );
      expect((await admin.query(`SELECT to_regclass('migrations') AS t`)).rows).toEqual([{ t: null }]);
      await admin.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK]);
      await Promise.all(started);
    } finally {
      await admin.end();
    }
    expect((await query<{ name: string }>(databaseUrl, 'SELECT name FROM migrations ORDER BY id')).map((r) => r.name)).toEqual(NAMES);
    for (const server of servers) {
      expect((await new HttpApi(server.url).request('GET', '/health/ready')).status).toBe(200);
      expect((await new HttpApi(server.url).request('POST', '/api/rooms', { hostName: 'Host' })).status).toBe(201);
    }
  }, 60_000);
});
