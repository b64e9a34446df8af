import { Client } from 'pg';
import { DelayProxy, HttpApi } from '@app/bot-kit';
import { JsonLog } from '../../../libs/server/src/config/json-log';
import { RunningServer } from '../src/server';
import { createTestDatabase, holdTable, writeWaitsOn } from '../../../test/support/database';
import { startTestServer } from '../../../test/support/test-server';
import { closeAll, journaledIds, queryDb, seatRoom, waitFor } from './support';

/**
 * A 503 means nothing was recorded (PROTOCOL.md section 14). Here a write reaches PostgreSQL and
 * commits, and its answer is lost on the way back (the link goes silent): the server must not say
 * 503. It settles the write by reading the database once the link is back, and answers the truth,
 * late: 200 for the answer, 201 for the room. And a write that never reached PostgreSQL gets its
 * 503. A real server, a real PostgreSQL, and a real TCP proxy between them.
 */
jest.setTimeout(60_000);

const SILENCE_MS = 600;

describe('replies that tell what the database holds', () => {
  let server: RunningServer;
  let proxy: DelayProxy;
  let url: string;
  let admin: Client;
  const logged: string[] = [];

  beforeAll(async () => {
    url = await createTestDatabase();
    const target = new URL(url);
    proxy = new DelayProxy({ host: target.hostname, port: Number(target.port) }, 0);
    await proxy.start();
    const log = new JsonLog('info', (line) => logged.push(line));
    server = await startTestServer({ databaseUrl: proxy.proxiedUrl(url), silenceMs: SILENCE_MS }, { log });
    admin = new Client({ connectionString: url });
    await admin.connect();
  });

  afterEach(() => proxy.restore());

  afterAll(async () => {
    await admin?.end();
    await server?.stop();
    await proxy?.stop();
  });

  const hold = (table: string) => holdTable(url, table);
  const waitingOn = (table: string) => waitFor(() => writeWaitsOn(admin, table), `a write waiting on ${table}`, 15_000);

  const settled = async (outcome: string) => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(new RegExp(`game_db_outcomes_settled_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
  };

  it('answers 200, late, for an answer that committed while its reply was lost, and the room plays on', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 1, secondsPerQuestion: 60 }, { timeoutMs: 45_000 });
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');
    const [ann, bob] = room.players;
    const recordedBefore = await settled('recorded');
    const release = await hold('room_journal');
    const answer = ann.send('room.answer', { question: 0, choice: 1 }, 'ann-lost-reply');
    await waitingOn('room_journal');
    // The link goes silent, then PostgreSQL commits the answer: its reply never comes back.
    proxy.blackHole();
    await release();
    await waitFor(
      async () => (await journaledIds({ databaseUrl: url }, room.roomId, 'room.answer')).includes('ann-lost-reply'),
      'the answer to commit',
      15_000,
    );
    // Longer than the silence the server allows: it has reset the lane and is trying to settle.
    await new Promise((r) => setTimeout(r, SILENCE_MS * 3));
    proxy.restore();
    expect(await answer).toMatchObject({ status: 200 });
    expect(await settled('recorded')).toBe(recordedBefore + 1);
    // The room was not let go, and its next write fits where the database is.
    expect((await bob.send('room.answer', { question: 0, choice: 2 }, 'bob-after')).status).toBe(200);
    const closed = await room.host.nextEvent('question.closed');
    expect(closed.data.counts[1]).toBe(1);
    expect(closed.data.counts[2]).toBe(1);
    expect(logged.filter((l) => l.includes('room let go'))).toEqual([]);
    closeAll(room);
  });

  it('answers 201, late, for a room whose opening committed while its reply was lost', async () => {
    const api = new HttpApi(server.url);
    const rooms = async () => (await admin.query('SELECT count(*)::int AS n FROM rooms')).rows[0].n as number;
    const before = await rooms();
    const release = await hold('rooms');
    const opening = api.request('POST', '/api/rooms', { hostName: 'Lost reply' });
    await waitingOn('rooms');
    proxy.blackHole();
    await release();
    await waitFor(async () => (await rooms()) === before + 1, 'the room to commit', 15_000);
    await new Promise((r) => setTimeout(r, 1500));
    proxy.restore();
    const opened = await opening;
    expect(opened.status).toBe(201);
    expect(await queryDb({ databaseUrl: url }, 'SELECT count(*)::int AS n FROM rooms WHERE id = $1', [opened.body.roomId])).toEqual([
      { n: 1 },
    ]);
    expect((await api.request('GET', `/api/rooms/${opened.body.code}`)).status).toBe(200);
  });

  it('answers 204, late, for a room whose closing committed while its reply was lost', async () => {
    const api = new HttpApi(server.url);
    const room = await api.createRoom({ hostName: 'Lost close' });
    const closedReason = async () =>
      (await admin.query('SELECT closed_reason FROM rooms WHERE id = $1', [room.roomId])).rows[0].closed_reason as string | null;
    const release = await hold('rooms');
    const closing = fetch(`${server.url}/api/rooms/${room.code}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${room.hostToken}` },
    });
    await waitingOn('rooms');
    proxy.blackHole();
    await release();
    await waitFor(async () => (await closedReason()) === 'host_closed', 'the close to commit', 15_000);
    await new Promise((r) => setTimeout(r, 1500));
    proxy.restore();
    expect((await closing).status).toBe(204);
    expect((await api.request('GET', `/api/rooms/${room.code}`)).status).toBe(410);
  });

  it('answers 503 for a room whose opening never reached PostgreSQL, and nothing of it is there', async () => {
    const api = new HttpApi(server.url);
    const before = await queryDb({ databaseUrl: url }, 'SELECT count(*)::int AS n FROM rooms');
    // A connection of the pool, opened and idle, so that the opening is written into the silent link.
    expect((await api.request('GET', '/api/decks')).status).toBe(200);
    proxy.blackHole();
    const opening = api.request('POST', '/api/rooms', { hostName: 'Never sent' });
    await new Promise((r) => setTimeout(r, 1500));
    proxy.restore();
    expect(await opening).toMatchObject({ status: 503, body: { code: 'database_unavailable' } });
    expect(await queryDb({ databaseUrl: url }, 'SELECT count(*)::int AS n FROM rooms')).toEqual(before);
  });
});
