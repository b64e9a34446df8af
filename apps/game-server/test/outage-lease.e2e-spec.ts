import { DelayProxy, SeatClient, HttpApi } from '@app/bot-kit';
import { JsonLog } from '../../../libs/server/src/config/json-log';
import { RunningServer } from '../src/server';
import { createTestDatabase } from '../../../test/support/database';
import { startTestServer } from '../../../test/support/test-server';
import { closeAll, finishedGames, journaledIds, queryDb, seatRoom, SeatedRoom, waitFor } from './support';

/**
 * Issue 20 item 1: an outage of PostgreSQL longer than a room's lease ends writes, not rooms. The
 * instance keeps its rooms and their sockets (nobody is disconnected), answers every command
 * (503 where PostgreSQL is needed), refuses at the upgrade a socket it cannot serve, and when
 * PostgreSQL is back renews the leases nobody took, so the game goes on where it was. Only a
 * fence that moved meanwhile makes it let a room go. The proxy between the server and PostgreSQL
 * is a real TCP proxy that refuses (a cut) or holds every byte (a silent database).
 */
jest.setTimeout(60_000);

const HEARTBEAT_MS = 200;
const LEASE_MS = 600;
const LAPSED = 'leases not renewed for longer than a lease';

describe.each([
  ['cut', (p: DelayProxy) => p.cutAll()],
  ['silent', (p: DelayProxy) => p.blackHole()],
])('when PostgreSQL is %s for longer than the lease', (_kind, outage) => {
  let server: RunningServer;
  let proxy: DelayProxy;
  let direct: { databaseUrl: string };
  const logged: string[] = [];

  beforeAll(async () => {
    const url = new URL(await createTestDatabase());
    direct = { databaseUrl: url.toString() };
    proxy = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 0);
    await proxy.start();
    const log = new JsonLog('info', (line) => logged.push(line));
    server = await startTestServer(
      { databaseUrl: proxy.proxiedUrl(url.toString()), instanceName: 'solo', heartbeatMs: HEARTBEAT_MS, leaseMs: LEASE_MS },
      { log },
    );
  });
  afterAll(async () => {
    proxy.restore();
    await server.stop();
    await proxy.stop();
  });

  const lapses = () => logged.filter((l) => l.includes(LAPSED)).length;
  const ready = async () => (await fetch(`${server.url}/health/ready`)).status;

  /** Cuts PostgreSQL off and resolves once the instance has gone longer than a lease without renewing it. */
  async function outageLongerThanLease(): Promise<void> {
    const before = lapses();
    outage(proxy);
    await waitFor(() => lapses() > before, 'the heartbeat to say the leases ran out', 20_000);
  }

  /** Counts every socket the server closes from here on. */
  function watchCloses(clients: SeatClient[]): { code: number }[] {
    const closes: { code: number }[] = [];
    for (const c of clients) void c.closed.then((closed) => closes.push(closed));
    return closes;
  }

  it('keeps every socket, answers every command, and finishes the game once PostgreSQL is back', async () => {
    const room: SeatedRoom = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 2 });
    // A room nobody has joined yet is not live here: its socket cannot be served during the outage.
    const api = new HttpApi(server.url);
    const quiet = await api.createRoom({ hostName: 'Dee' });
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');
    const clients = [room.host, ...room.players];
    const closes = watchCloses(clients);
    const [ann, bob, cy] = room.players;

    await outageLongerThanLease();
    // Writes are refused, and say so; nothing else is.
    expect(await ann.send('room.answer', { question: 0, choice: 1 }, 'ann-0')).toMatchObject({
      status: 503,
      error: { code: 'database_unavailable' },
    });
    expect((await bob.send('ping')).status).toBe(200);
    expect(await room.host.send('room.start', {}, 'start-again')).toMatchObject({ status: 409, error: { code: 'wrong_phase' } });
    expect(await api.request('GET', `/api/rooms/${room.code}`)).toMatchObject({ status: 200, body: { phase: 'question' } });
    // The process is alive and says it should not get new traffic.
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    expect(await api.request('GET', '/health/ready')).toMatchObject({
      status: 503,
      body: { status: 'not_ready', reason: 'database_unavailable' },
    });
    // A second socket of a live room is served from memory: its first frame is the room.
    const second = await SeatClient.connect(server.url, room.playerTokens[2]);
    expect((await second.nextEvent('room.state')).data).toMatchObject({ phase: 'question' });
    // A room that must be loaded is refused before a socket exists, with a retry hint.
    await expect(SeatClient.connect(server.url, quiet.hostToken)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 2 });
    expect(await ann.send('room.answer', { question: 0, choice: 1 }, 'ann-0')).toMatchObject({ status: 503 });

    proxy.restore();
    await waitFor(async () => (await ready()) === 200, 'the instance to be ready again', 20_000);
    // Nobody took the room: its lease is renewed with the same fence, and its writes go through.
    expect(await ann.send('room.answer', { question: 0, choice: 1 }, 'ann-0')).toMatchObject({ status: 200 });
    expect(await bob.send('room.answer', { question: 0, choice: 2 }, 'bob-0')).toMatchObject({ status: 200 });
    expect(await cy.send('room.answer', { question: 0, choice: 0 }, 'cy-0')).toMatchObject({ status: 200 });
    await room.host.nextEvent('question.open', (e) => e.data.index === 1);
    for (const [i, p] of room.players.entries())
      expect((await p.send('room.answer', { question: 1, choice: i }, `q1-${i}`)).status).toBe(200);
    await room.host.nextEvent('game.finished');
    // Every answer acknowledged is in the finished game's record (its finish cut the journal).
    const [record] = await finishedGames(direct, room.roomId);
    const recorded = record.questions.flatMap((q: any) => q.answers.map((a: any) => [q.index, a.playerId, a.choice]));
    expect(recorded.sort()).toEqual(
      [
        [0, 0, 1],
        [0, 1, 2],
        [0, 2, 0],
        [1, 0, 0],
        [1, 1, 1],
        [1, 2, 2],
      ]
        .map(([q, i, choice]) => [q, room.playerIds[i], choice])
        .sort(),
    );
    expect(await journaledIds(direct, room.roomId, 'room.answer')).toEqual([]);
    expect(closes).toEqual([]);
    expect(logged.some((l) => l.includes('room let go'))).toBe(false);
    second.close();
    closeAll(room);
  });

  it('lets a room go when PostgreSQL comes back with its fence moved (another instance took it meanwhile)', async () => {
    const room = await seatRoom(server, ['Ann'], { questionCount: 2 });
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');
    await outageLongerThanLease();
    // What an instance that took the lapsed lease leaves behind (written past the proxy).
    await queryDb(direct, `UPDATE room_heads SET lease_owner = 'another', lease_fence = lease_fence + 1 WHERE room_id = $1`, [room.roomId]);
    proxy.restore();
    // The first beat that gets through finds the fence moved: the sockets are told to reconnect.
    expect((await room.players[0].waitClosed()).code).toBe(1012);
    expect((await room.host.waitClosed()).code).toBe(1012);
    closeAll(room);
  });
});
