import { connect } from 'node:net';
import { Client } from 'pg';
import { SeatClient, timedHttp } from '@app/bot-kit';

/** What /health said: the build being measured, and the server's own view of its database. */
export interface HealthReading {
  readonly status: string;
  readonly version: string;
  readonly sha: string;
  readonly uptimeSeconds: number;
  readonly db: { ok: boolean; roundTripMs?: number; error?: string };
}

/** The distances of a run, measured before it starts. */
export interface Distances {
  readonly health?: HealthReading;
  readonly healthError?: string;
  /** 20 sequential `select 1` queries over the same path as the server's queries (through the proxy). */
  readonly selectOne?: { readonly path: string; readonly connectMs: number; readonly samples: number[] };
  readonly selectOneSkipped?: string;
  /** TCP connect times from the bench to the server. */
  readonly tcpConnect: number[];
  /** WebSocket `ping` replies on one socket. They measure the client hop plus the server's edge, with no database. */
  readonly wsPing?: number[];
  readonly wsPingError?: string;
}

export async function readHealth(baseUrl: string): Promise<HealthReading> {
  const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
  const body = (await res.json()) as HealthReading;
  if (res.status !== 200) throw new Error(`/health answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** Times `n` sequential `select 1` queries on one fresh connection. The connect is timed separately. */
export async function selectOneRoundTrips(databaseUrl: string, n = 20): Promise<{ connectMs: number; samples: number[] }> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'bench-yardstick' });
  const t0 = performance.now();
  await client.connect();
  const connectMs = performance.now() - t0;
  try {
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await client.query('select 1');
      samples.push(performance.now() - t);
    }
    return { connectMs, samples };
  } finally {
    await client.end();
  }
}

/** Times `n` TCP connects to the server's port, one after another, each closed at once. */
export async function tcpConnectTimes(baseUrl: string, n = 20): Promise<number[]> {
  const u = new URL(baseUrl);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    samples.push(
      await new Promise<number>((resolve, reject) => {
        const t = performance.now();
        const socket = connect({ host: u.hostname, port });
        socket.setTimeout(5000, () => socket.destroy(new Error('TCP connect timed out')));
        socket.once('connect', () => {
          const ms = performance.now() - t;
          socket.destroy();
          resolve(ms);
        });
        socket.once('error', reject);
      }),
    );
  }
  return samples;
}

/** Opens a throwaway room, sends `n` pings on the host's socket one after another, and closes the room. */
export async function wsPingTimes(baseUrl: string, n = 20): Promise<number[]> {
  const created = await timedHttp<{ code: string; hostToken: string }>(baseUrl, 'POST', '/api/rooms', {
    type: 'preflight',
    body: { hostName: 'Bench yardstick' },
  });
  if (created.status !== 201 || !created.body) throw new Error(`could not open a room for the ping yardstick: HTTP ${created.status}`);
  const { code, hostToken } = created.body;
  const socket = await SeatClient.connect(baseUrl, hostToken, { commandTimeoutMs: 5000, timeoutMs: 30_000, history: false });
  try {
    await socket.nextEvent('room.state');
    const samples: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await socket.command('ping');
      if (r.status !== 200) throw new Error(`ping answered ${r.status ?? r.error}`);
      samples.push(r.ms);
      // The socket's allowance is 20 commands a second, so stay under it.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    return samples;
  } finally {
    socket.close();
    await timedHttp(baseUrl, 'DELETE', `/api/rooms/${code}`, { type: 'preflight', headers: { authorization: `Bearer ${hostToken}` } });
  }
}

/** Measures everything before a run. A failed measurement is reported, not fatal. */
export async function measureDistances(
  baseUrl: string,
  yardstick: { databaseUrl?: string; path: string; skipped?: string },
): Promise<Distances> {
  let health: HealthReading | undefined;
  let healthError: string | undefined;
  try {
    health = await readHealth(baseUrl);
  } catch (err) {
    healthError = String(err instanceof Error ? err.message : err);
  }
  let selectOne: Distances['selectOne'];
  let selectOneSkipped = yardstick.skipped;
  if (yardstick.databaseUrl) {
    try {
      selectOne = { path: yardstick.path, ...(await selectOneRoundTrips(yardstick.databaseUrl)) };
    } catch (err) {
      selectOneSkipped = `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  const tcpConnect = await tcpConnectTimes(baseUrl).catch(() => []);
  let wsPing: number[] | undefined;
  let wsPingError: string | undefined;
  try {
    wsPing = await wsPingTimes(baseUrl);
  } catch (err) {
    wsPingError = err instanceof Error ? err.message : String(err);
  }
  return { health, healthError, selectOne, selectOneSkipped, tcpConnect, wsPing, wsPingError };
}
