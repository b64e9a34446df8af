import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { parentPid } from './host-usage';
import { BenchRun, TargetSettings } from './run';

/**
 * With --url, the bench measures the CPU of a server and a PostgreSQL that run on this machine. The
 * server's pid comes from /health, and the postmaster is the parent of a backend of --database-url.
 */
describe('BenchRun.findLocalProcesses (--url)', () => {
  let health: Server;
  let url: string;
  let out: string;
  const pgUrl = () => `${process.env.TEST_PG_URL}/postgres`;

  beforeAll(async () => {
    // This stands in for the server's /health, so this test process is the "server" on this machine.
    health = createServer((_req, res) => res.end(JSON.stringify({ status: 'ok', pid: process.pid })));
    await new Promise<void>((r) => health.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => health.close(r)));
  beforeEach(() => (out = mkdtempSync(join(tmpdir(), 'bench-local-'))));
  afterEach(() => rmSync(out, { recursive: true, force: true }));

  const target = (databaseUrl?: string): TargetSettings => ({
    url,
    databaseUrl,
    instanceUrls: [],
    dbDelayMs: 0,
    serverCommand: [],
    serverEnv: {},
    pgFast: false,
    pgStatements: false,
  });

  it('finds the server by its /health pid and PostgreSQL by its postmaster', async () => {
    const run = new BenchRun(out, target(pgUrl()), out);
    const found = await run.findLocalProcesses();
    expect(found.server).toBe(process.pid);
    // The postmaster is the parent of every backend, so ask for one more backend and compare.
    const client = new Client({ connectionString: pgUrl() });
    await client.connect();
    const backend = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    // Read this while the backend lives, because it exits with its connection.
    const postmaster = parentPid(backend);
    await client.end();
    expect(postmaster).toBeDefined();
    expect(found.postgres).toBe(postmaster);
    expect(found.postgres).not.toBe(backend);
    await run.close();
  });

  it('measures no PostgreSQL without --database-url, and none that cannot be reached', async () => {
    const without = new BenchRun(out, target(), out);
    expect(await without.findLocalProcesses()).toEqual({ server: process.pid, postgres: undefined });
    await without.close();
    const unreachable = new BenchRun(out, target('postgres://nobody:nothing@127.0.0.1:1/none'), out);
    expect((await unreachable.findLocalProcesses()).postgres).toBeUndefined();
    await unreachable.close();
  });
});
