import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { CloseCode } from '@app/protocol';
import { RoomsService } from '../../../libs/server/src/rooms/rooms.service';
import { FrontDoor } from '@app/server';
import { RunningServer } from '../src/server';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { queryDb, waitFor } from './support';

// The bounds of every anonymous surface (issue 32, item 4) against a real server: each refuses
// with its status (and Retry-After where it applies), is counted in /metrics, and writes nothing.
// The per-address windows are 10 minutes long, so that none ends while a test runs; for the same
// reason an instance budget of n gets a token back only every 600 / n seconds.

const ROOM = { hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 };
const DECK = { name: 'Capitals', questions: [{ text: 'Capital of France?', choices: ['Paris', 'Lyon'], correct: 0 }] };

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { statusCode?: number; code?: string; message?: string };
}

async function call(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  // A 204 has no body.
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (text ? JSON.parse(text) : {}) as Answer['body'] };
}

const refusals = async (server: RunningServer, limit: string) =>
  (await MetricsSnapshot.fetch(server.url)).value('game_limit_refusals_total', { limit });
const count = async (server: RunningServer, sql: string, params: unknown[] = []) =>
  (await queryDb<{ n: number }>(server, sql, params))[0].n;
const liveRooms = async (server: RunningServer) => (await MetricsSnapshot.fetch(server.url)).value('game_rooms_active');

function expectRateLimited(a: Answer, what: RegExp): void {
  expect(a.status).toBe(429);
  expect(a.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
  expect(a.body.message).toMatch(what);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(a.retryAfter)).toBeLessThanOrEqual(600);
}

function expectInstanceRefused(a: Answer, what: RegExp): void {
  expect(a.status).toBe(503);
  expect(a.body).toMatchObject({ statusCode: 503, code: 'overloaded' });
  expect(a.body.message).toMatch(what);
  expect(a.body.message).toMatch(/from all clients together; nothing was recorded/);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(a.retryAfter)).toBeLessThanOrEqual(600);
}

describe('bounds on anonymous surfaces', () => {
  describe('per client address: joins, deck writes, lookups and spectator seats', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), {
      trustedProxies: ['loopback'],
      addressWindowSeconds: 600,
      joinsPerMinute: 3,
      deckWritesPerMinute: 2,
      lookupsPerMinute: 4,
      spectatorsPerMinute: 3,
    });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });

    it('refuses the join past the budget with 429 and Retry-After, seats no one, and serves another address', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const joins = await Promise.all(
        ['A', 'B', 'C', 'D', 'E'].map((name) => call(server, 'POST', `/api/rooms/${room.code}/players`, { name }, from('203.0.113.1'))),
      );
      expect(joins.filter((a) => a.status === 201)).toHaveLength(3);
      const refused = joins.filter((a) => a.status !== 201);
      expect(refused).toHaveLength(2);
      for (const a of refused) expectRateLimited(a, /too many joins from this address/);
      expect(await refusals(server, 'join_rate')).toBe(2);
      expect((await call(server, 'POST', `/api/rooms/${room.code}/players`, { name: 'F' }, from('203.0.113.2'))).status).toBe(201);
      // Four seated: the refused ones wrote nothing.
      const summary = await call(server, 'GET', `/api/rooms/${room.code}`, undefined, from('198.51.100.200'));
      expect((summary.body as { players: unknown[] }).players).toHaveLength(4);
    });

    it('refuses deck creation and import past one shared budget, writing no deck', async () => {
      const before = await count(server, 'SELECT count(*)::int AS n FROM decks');
      expect((await call(server, 'POST', '/api/decks', DECK, from('203.0.113.3'))).status).toBe(201);
      const csv = await fetch(`${server.url}/api/decks/import?name=Csv`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', ...from('203.0.113.3') },
        body: 'question,choice1,choice2,correct\nQ?,a,b,1\n',
      });
      expect(csv.status).toBe(201);
      expectRateLimited(
        await call(server, 'POST', '/api/decks', DECK, from('203.0.113.3')),
        /too many decks created or imported from this address/,
      );
      const refusedImport = await fetch(`${server.url}/api/decks/import?name=Csv`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv', ...from('203.0.113.3') },
        body: 'question,choice1,choice2,correct\nQ?,a,b,1\n',
      });
      expect([refusedImport.status, refusedImport.headers.get('retry-after') !== null]).toEqual([429, true]);
      expect(await count(server, 'SELECT count(*)::int AS n FROM decks')).toBe(before + 2);
      expect(await refusals(server, 'deck_rate')).toBe(2);
    });

    it('refuses room lookups past the budget, for real and unknown codes alike, on both path families', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const ip = from('203.0.113.4');
      expect((await call(server, 'GET', `/api/rooms/${room.code}`, undefined, ip)).status).toBe(200);
      expect((await call(server, 'GET', '/api/rooms/ZZZZZZ', undefined, ip)).status).toBe(404);
      expect((await call(server, 'GET', '/api/tables/ZZZZZZ', undefined, ip)).status).toBe(404);
      expect((await call(server, 'GET', `/api/rooms/${room.code}`, undefined, ip)).status).toBe(200);
      expectRateLimited(await call(server, 'GET', `/api/rooms/${room.code}`, undefined, ip), /too many room lookups from this address/);
      expectRateLimited(await call(server, 'GET', '/api/tables/QQQQQQ', undefined, ip), /too many room lookups/);
      expect(await refusals(server, 'lookup_rate')).toBe(2);
      expect((await call(server, 'GET', `/api/rooms/${room.code}`, undefined, from('203.0.113.5'))).status).toBe(200);
    });

    it('refuses spectator seats past the budget', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const ip = from('2001:db8:5:5::1');
      const seats = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          call(server, 'POST', `/api/rooms/${room.code}/spectators`, {}, { 'x-forwarded-for': `2001:db8:5:5::${i}` }),
        ),
      );
      expect(seats.map((a) => a.status).sort()).toEqual([201, 201, 201, 429]);
      expectRateLimited(
        await call(server, 'POST', `/api/rooms/${room.code}/spectators`, {}, ip),
        /too many spectator seats asked for from this address/,
      );
      expect(await refusals(server, 'spectator_rate')).toBe(2);
    });
  });

  describe('for the whole instance: opening rooms and tables, from every address together', () => {
    let server: RunningServer;
    // A token comes back every 200 s: none does while the test runs.
    withTestServer((s) => (server = s), { trustedProxies: ['loopback'], addressWindowSeconds: 600, instanceOpensPerMinute: 3 });

    it('refuses the open past the instance budget with 503 overloaded and Retry-After, whatever the address, and writes nothing', async () => {
      const before = await count(server, 'SELECT count(*)::int AS n FROM rooms');
      const opens: Answer[] = [];
      for (const ip of ['203.0.113.11', '203.0.113.12', '203.0.113.13', '203.0.113.14'])
        opens.push(await call(server, 'POST', '/api/rooms', ROOM, { 'x-forwarded-for': ip }));
      expect(opens.map((a) => a.status)).toEqual([201, 201, 201, 503]);
      expectInstanceRefused(opens[3], /at most 3 rooms and tables opened a minute from all clients together/);
      // Tables share the budget of rooms.
      expectInstanceRefused(await call(server, 'POST', '/api/tables', { name: 'Dee' }, { 'x-forwarded-for': '203.0.113.15' }), /opened/);
      expect(await count(server, 'SELECT count(*)::int AS n FROM rooms')).toBe(before + 3);
      expect(await refusals(server, 'instance_open_rate')).toBe(2);
    });
  });

  describe('at the front door: refusals before the body is read', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { addressWindowSeconds: 600, instanceOpensPerMinute: 1, allowedOrigins: ['https://quiz.example'] });

    it('refuses an open past the budget whatever its body, and answers another origin it may read', async () => {
      const counted = await refusals(server, 'instance_open_rate');
      expect((await call(server, 'POST', '/api/rooms', ROOM, { origin: 'https://quiz.example' })).status).toBe(201);
      // The body is not JSON. Had it been parsed, the answer would be 400 bad_json: the door spent the
      // budget first and never read it.
      const res = await fetch(`${server.url}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://quiz.example' },
        body: '{"hostName": "Host", not json',
      });
      const body = (await res.json()) as Answer['body'];
      expectInstanceRefused({ status: res.status, retryAfter: res.headers.get('retry-after'), body }, /rooms and tables opened/);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://quiz.example');
      // The door answers ahead of Express, with the headers Express's middleware would have added.
      expect(res.headers.get('vary')).toBe('Origin');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(await refusals(server, 'instance_open_rate')).toBe(counted + 1);
      // A route that spends no anonymous budget is not the door's: the same body there is read, and refused as such.
      const edit = await fetch(`${server.url}/api/decks/00000000-0000-0000-0000-000000000000`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '{"hostName": "Host", not json',
      });
      expect([edit.status, ((await edit.json()) as Answer['body']).code]).toEqual([400, 'bad_json']);
    });

    it('knows every anonymous route of the app, each with its budget', () => {
      const door = server.app.get(FrontDoor);
      const asked: [string, string][] = [
        ['POST', '/api/rooms'],
        ['POST', '/api/tables'],
        ['POST', '/api/rooms/ABC234/players'],
        ['POST', '/api/rooms/ABC234/spectators'],
        ['POST', '/api/tables/ABC234/spectators'],
        ['GET', '/api/rooms/ABC234'],
        ['GET', '/api/tables/ABC234'],
        ['POST', '/api/decks'],
        ['POST', '/api/decks/import'],
        ['POST', '/api/decks/some-id/images'],
        ['DELETE', '/api/decks/some-id/images/an-image'],
        ['GET', '/api/decks'],
        ['DELETE', '/api/rooms/ABC234'],
      ];
      expect(asked.map(([method, path]) => door.routeOf(method, path)?.surface ?? null)).toEqual([
        'open',
        'open',
        'join',
        'spectator',
        'spectator',
        'lookup',
        'lookup',
        'deck',
        'deck',
        'image',
        'image',
        null,
        null,
      ]);
    });
  });

  describe('for the whole instance: joins, deck writes, lookups and spectator seats', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), {
      trustedProxies: ['loopback'],
      addressWindowSeconds: 600,
      joinsPerMinute: 1,
      instanceJoinsPerMinute: 3,
      instanceDeckWritesPerMinute: 2,
      instanceLookupsPerMinute: 3,
      instanceSpectatorsPerMinute: 2,
    });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const seated = async (code: string) =>
      (await new HttpApi(server.url).request('GET', `/admin/api/rooms/${code}`, undefined, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }))
        .body.players.length;

    it('refuses joins past the budget from fresh addresses; a join refused for its address spends none of it', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const joinRate = await refusals(server, 'join_rate');
      const answers: Answer[] = [];
      for (const [name, ip] of [
        ['A', '198.51.100.1'],
        ['B', '198.51.100.1'],
        ['C', '198.51.100.2'],
        ['D', '198.51.100.3'],
        ['E', '198.51.100.4'],
      ])
        answers.push(await call(server, 'POST', `/api/rooms/${room.code}/players`, { name }, from(ip)));
      // B is refused for its address (429), before the instance counts it, so C and D still fit.
      expect(answers.map((a) => a.status)).toEqual([201, 429, 201, 201, 503]);
      expectInstanceRefused(answers[4], /at most 3 joins a minute from all clients together/);
      expect(await refusals(server, 'join_rate')).toBe(joinRate + 1);
      expect(await refusals(server, 'instance_join_rate')).toBe(1);
      expect(await seated(room.code)).toBe(3);
    });

    it('refuses deck creation and import past one shared budget, writing no deck', async () => {
      const before = await count(server, 'SELECT count(*)::int AS n FROM decks');
      const csv = (ip: string) =>
        fetch(`${server.url}/api/decks/import?name=Csv`, {
          method: 'POST',
          headers: { 'content-type': 'text/csv', ...from(ip) },
          body: 'question,choice1,choice2,correct\nQ?,a,b,1\n',
        });
      expect((await call(server, 'POST', '/api/decks', DECK, from('198.51.100.11'))).status).toBe(201);
      expect((await csv('198.51.100.12')).status).toBe(201);
      expectInstanceRefused(await call(server, 'POST', '/api/decks', DECK, from('198.51.100.13')), /at most 2 decks created or imported/);
      const refusedImport = await csv('198.51.100.14');
      expect([refusedImport.status, refusedImport.headers.get('retry-after') !== null]).toEqual([503, true]);
      expect(await count(server, 'SELECT count(*)::int AS n FROM decks')).toBe(before + 2);
      expect(await refusals(server, 'instance_deck_rate')).toBe(2);
    });

    it('refuses room lookups past the budget, for real and unknown codes alike', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      expect((await call(server, 'GET', `/api/rooms/${room.code}`, undefined, from('198.51.100.21'))).status).toBe(200);
      expect((await call(server, 'GET', '/api/rooms/ZZZZZZ', undefined, from('198.51.100.22'))).status).toBe(404);
      expect((await call(server, 'GET', '/api/tables/ZZZZZZ', undefined, from('198.51.100.23'))).status).toBe(404);
      expectInstanceRefused(await call(server, 'GET', `/api/rooms/${room.code}`, undefined, from('198.51.100.24')), /room lookups/);
      expectInstanceRefused(await call(server, 'GET', '/api/tables/QQQQQQ', undefined, from('198.51.100.25')), /room lookups/);
      expect(await refusals(server, 'instance_lookup_rate')).toBe(2);
    });

    it('refuses spectator seats past the budget', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const seats: Answer[] = [];
      for (const ip of ['198.51.100.31', '198.51.100.32', '198.51.100.33'])
        seats.push(await call(server, 'POST', `/api/rooms/${room.code}/spectators`, {}, from(ip)));
      expect(seats.map((a) => a.status)).toEqual([201, 201, 503]);
      expectInstanceRefused(seats[2], /at most 2 spectator seats asked for a minute/);
      expect(await refusals(server, 'instance_spectator_rate')).toBe(1);
    });
  });

  describe('spectators per room', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { spectatorsPerRoom: 2 });

    it('refuses a spectator seat and a spectator socket past the cap with 409 spectators_full and Retry-After, and takes one again once one leaves', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      const seat = async () => call(server, 'POST', `/api/rooms/${room.code}/spectators`, {});
      const tokens = [(await seat()).body, (await seat()).body, (await seat()).body].map(
        (b) => (b as { spectatorToken: string }).spectatorToken,
      );
      const watching = [await SeatClient.connect(server.url, tokens[0]), await SeatClient.connect(server.url, tokens[1])];
      for (const w of watching) await w.nextEvent('room.state');

      const full = await seat();
      expect(full).toMatchObject({ status: 409, retryAfter: '10', body: { statusCode: 409, code: 'spectators_full' } });
      expect(full.body.message).toMatch(/maximum of 2 spectators/);
      // A seat minted before the room filled gets no socket either: refused at the upgrade.
      await expect(SeatClient.connect(server.url, tokens[2])).rejects.toMatchObject({ status: 409, retryAfterSeconds: 10 });
      expect(await refusals(server, 'room_spectators')).toBe(2);
      // Players are not spectators: the host still connects.
      const host = await SeatClient.connect(server.url, room.hostToken);
      expect((await host.send('ping')).status).toBe(200);

      watching[0].close();
      await watching[0].waitClosed();
      await waitFor(async () => (await seat()).status === 201, 'a spectator seat once one left');
      const third = await SeatClient.connect(server.url, tokens[2]);
      await third.nextEvent('room.state');
      for (const c of [third, watching[1], host]) c.close();
    });
  });

  describe('sockets per instance', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { maxSockets: 3 });

    it('refuses an upgrade past the cap with 503 and Retry-After before a socket exists, and takes one again once one closes', async () => {
      const api = new HttpApi(server.url);
      const room = await api.createRoom(ROOM);
      const players = [await api.join(room.code, 'A'), await api.join(room.code, 'B')];
      const open = [
        await SeatClient.connect(server.url, room.hostToken),
        ...(await Promise.all(players.map((p) => SeatClient.connect(server.url, p.playerToken)))),
      ];
      const metrics = await MetricsSnapshot.fetch(server.url);
      expect(metrics.value('game_sockets_open', { role: 'player' }) + metrics.value('game_sockets_open', { role: 'host' })).toBe(3);

      const extra = await api.join(room.code, 'C');
      await expect(SeatClient.connect(server.url, extra.playerToken)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 5 });
      // Refused before the token is read: a forged one gets the same answer.
      await expect(SeatClient.connect(server.url, 'forged.token')).rejects.toMatchObject({ status: 503, retryAfterSeconds: 5 });
      expect(await refusals(server, 'instance_sockets')).toBe(2);

      open[2].close();
      await open[2].waitClosed();
      let again: SeatClient | undefined;
      await waitFor(async () => {
        again = await SeatClient.connect(server.url, extra.playerToken).catch(() => undefined);
        return again !== undefined;
      }, 'a socket once one closed');
      expect((await again!.send('ping')).status).toBe(200);
      for (const c of [again!, open[0], open[1]]) c.close();
    });
  });

  describe('unknown and closed codes', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { maxLiveRooms: 1 });

    it('does not give an unknown code the live-room slot of a real room asked for in the same load', async () => {
      const room = await new HttpApi(server.url).createRoom(ROOM);
      expect(await liveRooms(server)).toBe(0);
      const registry = server.app.get(RoomsService).registry;
      // Asked for in one turn, they go in one load: the unknown codes first.
      const unknown = ['AAAAAA', 'BBBBBB', 'CCCCCC', 'DDDDDD', 'EEEEEE'];
      const asked = [...unknown, room.code].map((code) =>
        registry.get(code).then(
          (r) => (r ? 'live' : 'none'),
          (err: { code?: string }) => err.code,
        ),
      );
      expect(await Promise.all(asked)).toEqual([...unknown.map(() => 'none'), 'live']);
      expect(await liveRooms(server)).toBe(1);
      expect(await refusals(server, 'live_rooms')).toBe(0);
      // Over HTTP, an unknown code at the cap is 404, not 503: it takes nothing.
      expect((await call(server, 'GET', '/api/rooms/FFFFFF')).status).toBe(404);
      expect((await call(server, 'GET', `/api/rooms/${room.code}`)).status).toBe(200);
      // Closed, it leaves memory: the slot is free for the next test.
      expect(
        (await call(server, 'DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status,
      ).toBe(204);
      await waitFor(async () => (await liveRooms(server)) === 0, 'the closed room to leave memory');
    });

    it('answers a closed room 410 room_gone from its row, one statement, and never rebuilds it', async () => {
      const api = new HttpApi(server.url);
      const room = await api.createRoom(ROOM);
      await api.join(room.code, 'Ann');
      expect(
        (await call(server, 'DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status,
      ).toBe(204);
      await waitFor(async () => (await liveRooms(server)) === 0, 'the closed room to leave memory');

      const journalBefore = await count(server, 'SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1', [room.roomId]);
      for (const ask of [
        () => call(server, 'GET', `/api/rooms/${room.code}`),
        () => call(server, 'POST', `/api/rooms/${room.code}/players`, { name: 'Late' }),
        () => call(server, 'POST', `/api/rooms/${room.code}/spectators`, {}),
      ]) {
        const log = server.runtime.meter.capture();
        const answer = await ask();
        // Its row only: no snapshot or journal read, nothing written.
        expect(log.stop()).toEqual(['RoomRepository.loadRooms']);
        expect(answer).toMatchObject({ status: 410, body: { statusCode: 410, code: 'room_gone' } });
        expect(answer.body.message).toMatch(/closed \(host_closed\)/);
      }
      expect(await liveRooms(server)).toBe(0);
      expect(await count(server, 'SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1', [room.roomId])).toBe(journalBefore);
      // A socket with the room's token is accepted and closed with 4004: its client stops.
      const socket = await SeatClient.connect(server.url, room.hostToken);
      expect((await socket.waitClosed()).code).toBe(CloseCode.roomClosed);
      expect(await liveRooms(server)).toBe(0);
    });
  });
});
