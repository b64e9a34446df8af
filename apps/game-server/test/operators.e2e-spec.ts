import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { RunningServer } from '../src/server';
import { createTestDatabase } from '../../../test/support/database';
import { BUILT_SERVER, requireBuiltServer } from '../../../test/support/server-process';
import { startTestServer, TEST_ADMIN_TOKEN } from '../../../test/support/test-server';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(10_000) });

/** Issue 32 item 7: the operators' surfaces apart from the players'. */
describe('the operator port', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ operatorPort: 0 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves /metrics, the console and its API, and the public port answers them 404', async () => {
    const operators = server.operatorUrl!;
    expect(server.operatorPort).not.toBe(server.port);

    const metrics = await get(`${operators}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('process_cpu_user_seconds_total');
    expect((await get(`${operators}/admin/api/overview`, admin)).status).toBe(200);
    expect((await get(`${operators}/admin/api/overview`)).status).toBe(401);
    // The console's page: served (or 503 where web-admin is not built), never 404.
    const console = await get(`${operators}/admin/`);
    expect([200, 503]).toContain(console.status);
    if (console.status === 503) expect(((await console.json()) as { code: string }).code).toBe('console_not_built');
    expect((await get(`${operators}/health/live`)).status).toBe(200);

    for (const path of ['/metrics', '/admin', '/admin/', '/admin/api/overview', '/admin/api/rooms', '/admin/assets/x.js']) {
      const res = await get(`${server.url}${path}`, admin);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('serves the players on the public port only', async () => {
    const opened = await fetch(`${server.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 }),
    });
    expect(opened.status).toBe(201);
    const { code } = (await opened.json()) as { code: string };
    expect((await get(`${server.url}/api/rooms/${code}`)).status).toBe(200);
    expect((await get(`${server.url}/health/live`)).status).toBe(200);
    // The operator port is not a second way in for players.
    expect((await get(`${server.operatorUrl}/api/rooms/${code}`)).status).toBe(404);
    expect((await get(`${server.operatorUrl}/`)).status).toBe(404);
  });
});

describe('an operator port that is taken', () => {
  it('refuses to start, naming it', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startTestServer({ operatorPort: port })).rejects.toThrow(`OPERATOR_PORT ${port} could not be listened on`);
    } finally {
      taken.close();
    }
  });
});

describe('without an operator port', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves /metrics and /admin/api on the one port, as before', async () => {
    expect(server.operatorUrl).toBeUndefined();
    expect((await get(`${server.url}/metrics`)).status).toBe(200);
    expect((await get(`${server.url}/admin/api/overview`, admin)).status).toBe(200);
  });
});

/** Everything a real server process writes until it has started (or exited), stdout and stderr, with no terminal. */
async function startAndRead(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [BUILT_SERVER], {
    cwd: resolve(__dirname, '../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  const lines: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const started = new Promise<void>((done) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"server started"')) done();
    });
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  });
  const late = new Promise<void>((_, reject) =>
    setTimeout(() => reject(new Error(`no "server started" within 30 s:\n${lines.join('\n')}`)), 30_000).unref(),
  );
  try {
    await Promise.race([started, exited.then(() => Promise.reject(new Error(`the server exited:\n${lines.join('\n')}`))), late]);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  return lines.join('\n');
}

describe('a generated admin token', () => {
  beforeAll(() => requireBuiltServer());

  it('is never written to the log of a process without a terminal, on its first start or the next', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'game-admin-token-'));
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      TOKEN_SECRET: 'operators-test-token-secret-0123456789abcdef',
      ADMIN_TOKEN: '',
    };

    const first = await startAndRead(env);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(first).not.toContain(token);
    // The log says where it is and how to choose one instead, in JSON lines.
    const notice = first
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).startsWith('ADMIN_TOKEN was not set'));
    expect(notice).toMatchObject({ level: 'warn', file: join(dataDir, 'admin-token') });
    expect(String(notice!.howToSet)).toContain('set ADMIN_TOKEN');

    const second = await startAndRead(env);
    expect(second).toContain('using the one kept in DATA_DIR');
    expect(second).not.toContain(token);
  }, 90_000);
});
