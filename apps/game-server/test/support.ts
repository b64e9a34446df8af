import { Client } from 'pg';
import { DelayProxy, SeatClient, HttpApi } from '@app/bot-kit';
import { ServerConfig } from '../../../libs/server/src/config/server-config';
import { RunningServer, StartOptions } from '../src/server';
import { createTestDatabase } from '../../../test/support/database';
import { startTestServer, TEST_ADMIN_TOKEN } from '../../../test/support/test-server';

export interface SeatedRoom {
  readonly code: string;
  readonly roomId: string;
  readonly hostToken: string;
  readonly host: SeatClient;
  readonly playerIds: string[];
  readonly playerTokens: string[];
  readonly players: SeatClient[];
}

/** A room with its host and players connected, each past its first `room.state`. */
export async function seatRoom(
  server: Pick<RunningServer, 'url'>,
  names: string[],
  settings: Record<string, unknown> = {},
  clients: { readonly timeoutMs?: number } = {},
): Promise<SeatedRoom> {
  const api = new HttpApi(server.url);
  const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0, ...settings });
  return seatIn(server.url, room, names, clients);
}

/**
 * Seats `names` in a room that exists and connects its host and players, each past its first
 * `room.state`, the host first so that it hears each of them arrive. Through the cluster's proxy
 * (`throughProxy`), every socket carries `room=CODE`.
 */
export async function seatIn(
  baseUrl: string,
  room: { readonly code: string; readonly roomId: string; readonly hostToken: string },
  names: string[],
  options: { readonly throughProxy?: boolean; readonly timeoutMs?: number } = {},
): Promise<SeatedRoom> {
  const api = new HttpApi(baseUrl);
  const seats: { playerId: string; playerToken: string }[] = [];
  for (const name of names) seats.push(await api.join(room.code, name));
  const connect = (token: string) =>
    SeatClient.connect(baseUrl, token, {
      ...(options.throughProxy ? { room: room.code } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  const host = await connect(room.hostToken);
  await host.nextEvent('room.state');
  const players: SeatClient[] = [];
  for (const seat of seats) {
    const client = await connect(seat.playerToken);
    await client.nextEvent('room.state');
    players.push(client);
  }
  // Everyone's presence has been seen by the host, so the room is quiet from here on.
  for (const seat of seats) await host.nextEvent('player.presence', (e) => e.data.playerId === seat.playerId && e.data.connected);
  return {
    code: room.code,
    roomId: room.roomId,
    hostToken: room.hostToken,
    host,
    playerIds: seats.map((s) => s.playerId),
    playerTokens: seats.map((s) => s.playerToken),
    players,
  };
}

export function closeAll(room: SeatedRoom): void {
  for (const c of [room.host, ...room.players]) c.close();
}

/** The statements `action` cost, in order, counted at the pg client (each one a round trip). */
export async function statementsOf(server: Pick<RunningServer, 'runtime'>, action: () => Promise<unknown>): Promise<readonly string[]> {
  const log = server.runtime.meter.capture();
  await action();
  return log.stop();
}

/** Reads the database directly, to check what was (or was not) recorded. */
export async function queryDb<T = any>(server: Pick<RunningServer, 'databaseUrl'>, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Resolves once `condition` holds, checking it every few milliseconds; rejects, naming `what`,
 * if it still does not after `timeoutMs`. A wait on an observable state, never a guess at how
 * long something takes.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Resolves once `n` statements wait for a lock on `table`: the commands that issued them are in flight. */
export async function untilWaitingOnLock(server: RunningServer, table: string, n = 1): Promise<void> {
  const sql = 'SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = $1::regclass';
  await waitFor(
    async () => (await queryDb<{ n: number }>(server, sql, [table]))[0].n >= n,
    `${n} statement(s) waiting for a lock on ${table}`,
  );
}

/** Resolves once the room's mailbox holds `depth` commands, as the admin API reports it. */
export async function untilMailboxDepth(server: RunningServer, code: string, depth: number): Promise<void> {
  const api = new HttpApi(server.url);
  await waitFor(
    async () =>
      (await api.request('GET', `/admin/api/rooms/${code}`, undefined, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` })).body
        ?.mailboxDepth === depth,
    `room ${code}'s mailbox to hold ${depth} command(s)`,
  );
}

/**
 * Locks `table` from another connection so that the room's next write to it waits: a way to
 * hold a command in flight for as long as a test needs. Call the result to let it go.
 */
export async function holdTable(server: RunningServer, table: string): Promise<() => Promise<void>> {
  const locker = new Client({ connectionString: server.databaseUrl });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return async () => {
    await locker.query('COMMIT');
    await locker.end();
  };
}

/** A journaled command of a room: who sent it, its id and its data, in the order the room took it. */
export interface JournaledCommand {
  readonly seat: string | null;
  readonly commandId: string;
  readonly data: any;
}

/** The commands of `type` a room's journal holds (each one the rules accepted and PostgreSQL committed), in order. */
export async function journaled(server: Pick<RunningServer, 'databaseUrl'>, roomId: string, type: string): Promise<JournaledCommand[]> {
  return queryDb<JournaledCommand>(
    server,
    `SELECT actor->>'seat' AS seat, command_id AS "commandId", body->'data' AS data FROM room_journal
     WHERE room_id = $1 AND kind = 'command' AND body->>'type' = $2 ORDER BY seq, idx`,
    [roomId, type],
  );
}

/** The ids of a room's journaled commands of `type`, sorted. */
export async function journaledIds(server: Pick<RunningServer, 'databaseUrl'>, roomId: string, type: string): Promise<string[]> {
  return (await journaled(server, roomId, type)).map((c) => c.commandId).sort();
}

/** A room's finished games, each as its game reported it (its summary), in the order they were played. */
export async function finishedGames(server: Pick<RunningServer, 'databaseUrl'>, roomId: string): Promise<any[]> {
  const rows = await queryDb<{ summary: unknown }>(server, 'SELECT summary FROM finished_games WHERE room_id = $1 ORDER BY game_no', [
    roomId,
  ]);
  return rows.map((r) => r.summary);
}

/** A server whose link to its database runs through a proxy a test can cut or silence, and the database's own address. */
export interface ServerBehindProxy {
  readonly server: RunningServer;
  /** Between the server and PostgreSQL: `cutAll()` refuses every link, `blackHole()` holds every byte, `restore()` heals. */
  readonly proxy: DelayProxy;
  /** The database itself, around the proxy: what a test reads to check what was recorded. */
  readonly direct: { readonly databaseUrl: string };
}

/**
 * Starts a server over a fresh database behind a TCP proxy before the describe block's tests, and
 * stops both after them (the proxy healed first). The fields are there once the tests run.
 */
export function serverBehindProxy(overrides: Partial<ServerConfig> = {}, options: StartOptions = {}): ServerBehindProxy {
  const env = {} as { server: RunningServer; proxy: DelayProxy; direct: { databaseUrl: string } };
  beforeAll(async () => {
    const url = new URL(await createTestDatabase());
    env.direct = { databaseUrl: url.toString() };
    env.proxy = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 0);
    await env.proxy.start();
    env.server = await startTestServer({ ...overrides, databaseUrl: env.proxy.proxiedUrl(url.toString()) }, options);
  });
  afterAll(async () => {
    env.proxy.restore();
    await env.server.stop();
    await env.proxy.stop();
  });
  return env;
}
