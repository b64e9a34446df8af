import { randomBytes } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { CloseCode } from '@app/protocol';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom, waitFor } from './support';

// The limits of PROTOCOL.md section 11 against a real server, each through the real mechanism.
// Windows are long (10 minutes) so that no window ends while a test runs, however slow the machine.

const ROOM = { hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 };

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { statusCode?: number; code?: string; message?: string };
}

async function post(server: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

async function get(server: RunningServer, path: string): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

/** `n` posts, `wave` at a time: rapid, without opening hundreds of connections at once. */
async function burst(n: number, wave: number, send: (i: number) => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i += wave)
    answers.push(...(await Promise.all(Array.from({ length: Math.min(wave, n - i) }, (_, j) => send(i + j)))));
  return answers;
}

const refusals = async (server: RunningServer, limit: string) =>
  (await MetricsSnapshot.fetch(server.url)).value('game_limit_refusals_total', { limit });
const roomRows = async (server: RunningServer) => (await queryDb<{ n: number }>(server, 'SELECT count(*)::int AS n FROM rooms'))[0].n;

function expectRateLimited(a: Answer, windowSeconds: number): void {
  expect(a.status).toBe(429);
  expect(a.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
  expect(a.body.message).toMatch(/too many rooms and tables opened from this address/);
  expect(a.retryAfter).toMatch(/^\d+$/);
  expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(a.retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

describe('limits', () => {
  describe('opening rooms and tables, per client address, behind a trusted proxy', () => {
    let server: RunningServer;
    // 10 at most in a window of 10 minutes.
    withTestServer((s) => (server = s), { trustedProxies: ['loopback'], openRatePerMinute: 1, openBurst: 10 });

    it('refuses most of 600 rapid creations from one address with 429, Retry-After and rate_limited, while another address is served', async () => {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const answers = await burst(600, 50, () => post(server, '/api/rooms', ROOM, from('203.0.113.7')));
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status !== 201);
      expect(created).toHaveLength(10);
      expect(refused).toHaveLength(590);
      for (const a of refused) expectRateLimited(a, 600);
      // Refused before anything was written.
      expect(await roomRows(server)).toBe(10);

      // Another client behind the same proxy has its own allowance, and the first is still refused.
      const other = await post(server, '/api/rooms', ROOM, from('198.51.100.9'));
      expect(other.status).toBe(201);
      expect(other.retryAfter).toBeNull();
      expectRateLimited(await post(server, '/api/rooms', ROOM, from('203.0.113.7')), 600);
      // The proxy's chain: the client is the address the trusted proxy saw, whatever it was sent before it.
      expectRateLimited(await post(server, '/api/rooms', ROOM, from('198.51.100.250, 203.0.113.7')), 600);
      expect(await roomRows(server)).toBe(11);
      expect(await refusals(server, 'open_rate')).toBe(592);
    });

    it('counts rooms and tables in one allowance: tables are refused alike, and served to another address', async () => {
      const before = await refusals(server, 'open_rate');
      expectRateLimited(await post(server, '/api/tables', { name: 'Ann' }, { 'x-forwarded-for': '203.0.113.7' }), 600);

      const fresh = { 'x-forwarded-for': '192.0.2.44' };
      const rooms = await burst(4, 4, () => post(server, '/api/rooms', ROOM, fresh));
      const tables = await burst(6, 6, () => post(server, '/api/tables', { name: 'Ann' }, fresh));
      expect([...rooms, ...tables].map((a) => a.status)).toEqual(Array(10).fill(201));
      expectRateLimited(await post(server, '/api/tables', { name: 'Ann' }, fresh), 600);
      expectRateLimited(await post(server, '/api/rooms', ROOM, fresh), 600);
      expect(await refusals(server, 'open_rate')).toBe(before + 3);
    });

    it('counts every address of one IPv6 /64 as one client', async () => {
      const answers = await burst(12, 12, (i) =>
        post(server, '/api/rooms', ROOM, { 'x-forwarded-for': `2001:db8:7:7::${(i + 1).toString(16)}` }),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(2);
      expect((await post(server, '/api/rooms', ROOM, { 'x-forwarded-for': '2001:db8:7:8::1' })).status).toBe(201);
    });
  });

  describe('X-Forwarded-For from a peer that is not a configured proxy', () => {
    let server: RunningServer;
    // Only 10.0.0.0/8 may name the client; the test's requests come from 127.0.0.1.
    withTestServer((s) => (server = s), { trustedProxies: ['10.0.0.0/8'], openRatePerMinute: 1, openBurst: 3 });

    it('is ignored: the client is the TCP peer, so a new header each time gets no new allowance', async () => {
      const answers = await burst(20, 5, (i) => post(server, '/api/rooms', ROOM, { 'x-forwarded-for': `198.51.100.${i + 1}` }));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      const refused = answers.filter((a) => a.status !== 201);
      expect(refused).toHaveLength(17);
      for (const a of refused) expectRateLimited(a, 180);
      expect(await roomRows(server)).toBe(3);
    });
  });

  describe('live rooms per instance', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { maxLiveRooms: 2 });

    it('refuses opening and activating past the cap with 503 rooms_at_capacity and Retry-After; live rooms go on; room again once one leaves', async () => {
      const api = new HttpApi(server.url);
      // Opened while nothing is live; a room goes live when first used.
      const [a, b, c] = [await api.createRoom(ROOM), await api.createRoom(ROOM), await api.createRoom(ROOM)];
      expect((await get(server, `/api/rooms/${a.code}`)).status).toBe(200);
      expect((await get(server, `/api/rooms/${b.code}`)).status).toBe(200);
      const live = async () => (await MetricsSnapshot.fetch(server.url)).value('game_rooms_active');
      expect(await live()).toBe(2);

      const atCapacity = (x: Answer) => {
        expect(x.status).toBe(503);
        expect(x.body).toMatchObject({ statusCode: 503, code: 'rooms_at_capacity' });
        expect(x.body.message).toMatch(/maximum of 2 live rooms/);
        expect(x.retryAfter).toBe('5');
      };
      const rowsBefore = await roomRows(server);
      atCapacity(await post(server, '/api/rooms', ROOM));
      atCapacity(await post(server, '/api/tables', { name: 'Ann' }));
      expect(await roomRows(server)).toBe(rowsBefore);
      // A room that is not live here is not activated, whatever asks for it.
      atCapacity(await get(server, `/api/rooms/${c.code}`));
      atCapacity(await post(server, `/api/rooms/${c.code}/players`, { name: 'Ann' }));
      expect(await refusals(server, 'live_rooms')).toBe(4);
      // A socket for it is not served: refused at the upgrade, before it exists, with the same hint.
      await expect(SeatClient.connect(server.url, c.hostToken)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 5 });
      expect(await refusals(server, 'live_rooms')).toBe(5);
      expect(await live()).toBe(2);

      // The live rooms are served as ever.
      const ann = await api.join(a.code, 'Ann');
      const socket = await SeatClient.connect(server.url, ann.playerToken);
      expect((await socket.send('ping')).status).toBe(200);
      socket.close();

      // A closed room leaves memory: there is room for C again.
      const closed = await fetch(`${server.url}/api/rooms/${b.code}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${b.hostToken}` },
      });
      expect(closed.status).toBe(204);
      await waitFor(async () => (await live()) === 1, 'the closed room to leave memory');
      expect((await get(server, `/api/rooms/${c.code}`)).status).toBe(200);
      expect(await live()).toBe(2);
    });
  });

  describe('sockets per seat token', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { socketsPerSeat: 2 });

    it('lets the newest win: past the cap the oldest socket of the seat closes with 4010; the others and other seats are served', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      const before = await refusals(server, 'seat_sockets');
      const [first, bob] = room.players;
      const second = await SeatClient.connect(server.url, room.playerTokens[0]);
      await second.nextEvent('room.state');
      const third = await SeatClient.connect(server.url, room.playerTokens[0]);
      await third.nextEvent('room.state');

      expect(await first.waitClosed()).toEqual({ code: CloseCode.replaced, reason: 'replaced by a newer connection of this seat' });
      for (const c of [second, third, bob, room.host]) expect((await c.send('ping')).status).toBe(200);
      expect(await refusals(server, 'seat_sockets')).toBe(before + 1);
      const sockets = await MetricsSnapshot.fetch(server.url);
      expect(sockets.value('game_sockets_open', { role: 'player' })).toBe(3);
      closeAll(room);
      second.close();
      third.close();
    });

    it('cuts a pushed-out socket whose client never answers the close', async () => {
      const room = await seatRoom(server, ['Ann']);
      const silent = await RawSocket.open(server, room.playerTokens[0]);
      await silent.firstFrame;
      // The seat now holds the first socket and the silent one; two newer push both out, oldest first.
      const newer = [
        await SeatClient.connect(server.url, room.playerTokens[0]),
        await SeatClient.connect(server.url, room.playerTokens[0]),
      ];
      for (const c of newer) await c.nextEvent('room.state');
      expect((await room.players[0].waitClosed()).code).toBe(CloseCode.replaced);
      // The silent client read the close frame and did not answer it; the server cut the TCP
      // connection well before ws's own 30 s close timeout.
      const ended = await silent.ended(15_000);
      expect(ended.closeCode).toBe(CloseCode.replaced);
      for (const c of newer) expect((await c.send('ping')).status).toBe(200);
      closeAll(room);
      for (const c of newer) c.close();
    });
  });

  describe('seed in POST /api/tables', () => {
    describe('on a server not started for tests', () => {
      let server: RunningServer;
      withTestServer((s) => (server = s), { allowTestSeeds: false });

      it.each([42, 0, null, 'x'])('refuses seed %p with 400 naming it, and opens nothing', async (seed) => {
        const rows = await roomRows(server);
        const before = await refusals(server, 'test_seed');
        const a = await post(server, '/api/tables', { name: 'Ann', seed });
        expect(a.status).toBe(400);
        expect(a.body).toMatchObject({ statusCode: 400, code: 'bad_data' });
        expect(a.body.message).toMatch(/^data\.seed is taken only by a server started for tests/);
        expect(await roomRows(server)).toBe(rows);
        expect(await refusals(server, 'test_seed')).toBe(before + 1);
      });

      it('opens a table without one, dealt from a seed of its own', async () => {
        const tables = await burst(2, 2, () => post(server, '/api/tables', { name: 'Ann' }));
        expect(tables.map((t) => t.status)).toEqual([201, 201]);
        const seeds = await queryDb<{ seed: number }>(server, "SELECT (settings->>'seed')::bigint AS seed FROM rooms WHERE game = 'cards'");
        expect(seeds).toHaveLength(2);
        // Crypto-random 31-bit seeds: two alike would be a one-in-two-billion coincidence.
        expect(Number(seeds[0].seed)).not.toBe(Number(seeds[1].seed));
      });
    });

    describe('on a server started for tests (ALLOW_TEST_SEEDS=1)', () => {
      let server: RunningServer;
      withTestServer((s) => (server = s), { allowTestSeeds: true });

      it('honours it: the table is dealt from the seed it was given', async () => {
        const before = await refusals(server, 'test_seed');
        const tables = await burst(2, 2, () => post(server, '/api/tables', { name: 'Ann', seed: 42 }));
        expect(tables.map((t) => t.status)).toEqual([201, 201]);
        const seeds = await queryDb<{ seed: number }>(server, "SELECT (settings->>'seed')::bigint AS seed FROM rooms WHERE game = 'cards'");
        // Each hand's deck is a function of (seed, hand number) alone (libs/games/cards): same seed, same cards.
        expect(seeds.map((r) => Number(r.seed))).toEqual([42, 42]);
        expect(await refusals(server, 'test_seed')).toBe(before);
      });
    });
  });
});

/**
 * A WebSocket client that reads but never answers: it completes the upgrade, takes frames, and
 * sends nothing back, not even the close handshake a real client sends at once.
 */
class RawSocket {
  private buffer = Buffer.alloc(0);
  private upgraded = false;
  private closeCode?: number;
  private resolveFirst!: () => void;
  readonly firstFrame = new Promise<void>((r) => (this.resolveFirst = r));
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (d) => this.onData(d));
    this.closed = new Promise((r) => socket.once('close', () => r()));
  }

  static async open(server: RunningServer, token: string): Promise<RawSocket> {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const raw = new RawSocket(socket);
    socket.write(
      [
        `GET /ws?token=${encodeURIComponent(token)} HTTP/1.1`,
        `Host: 127.0.0.1:${server.port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
    return raw;
  }

  /** Resolves once the server has cut the connection, with the close code it sent before. */
  ended(timeoutMs: number): Promise<{ closeCode?: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not cut the silent socket within ${timeoutMs} ms`)), timeoutMs);
      void this.closed.then(() => {
        clearTimeout(timer);
        resolve({ closeCode: this.closeCode });
      });
    });
  }

  private onData(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    if (!this.upgraded) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!this.buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101'))
        throw new Error(`upgrade refused: ${this.buffer.subarray(0, end)}`);
      this.upgraded = true;
      this.buffer = this.buffer.subarray(end + 4);
    }
    // Frames from the server are not masked: opcode, length (7 bits, or 16 or 64 more), payload.
    while (this.buffer.length >= 2) {
      const opcode = this.buffer[0] & 0x0f;
      let length = this.buffer[1] & 0x7f;
      let at = 2;
      if (length >= 126 && this.buffer.length < (length === 126 ? 4 : 10)) return;
      if (length === 126) [length, at] = [this.buffer.readUInt16BE(2), 4];
      else if (length === 127) [length, at] = [Number(this.buffer.readBigUInt64BE(2)), 10];
      if (this.buffer.length < at + length) return;
      const payload = this.buffer.subarray(at, at + length);
      this.buffer = this.buffer.subarray(at + length);
      if (opcode === 0x1) this.resolveFirst();
      if (opcode === 0x8 && payload.length >= 2) this.closeCode = payload.readUInt16BE(0);
    }
  }
}
