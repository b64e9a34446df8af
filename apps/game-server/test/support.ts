import { Client } from 'pg';
import { GameClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';

export interface SeatedRoom {
  readonly code: string;
  readonly roomId: string;
  readonly hostToken: string;
  readonly host: GameClient;
  readonly playerIds: string[];
  readonly playerTokens: string[];
  readonly players: GameClient[];
}

/** A room with its host and players connected, each past its first `room.state`. */
export async function seatRoom(server: Pick<RunningServer, 'url'>, names: string[], settings: Record<string, unknown> = {}): Promise<SeatedRoom> {
  const api = new HttpApi(server.url);
  const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0, ...settings });
  const seats: { playerId: string; playerToken: string }[] = [];
  for (const name of names) seats.push(await api.join(room.code, name));
  const host = await GameClient.connect(server.url, room.hostToken);
  await host.nextEvent('room.state');
  const players: GameClient[] = [];
  for (const seat of seats) {
    const client = await GameClient.connect(server.url, seat.playerToken);
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
