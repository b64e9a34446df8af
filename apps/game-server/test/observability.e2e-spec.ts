import { HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { Database } from '@app/persistence';
import { RunningServer } from '../src/server';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { closeAll, seatRoom } from './support';

const FAMILIES: [string, string, string[]][] = [
  ['game_command_duration_seconds', 'histogram', ['command', 'status_class']],
  ['game_mailbox_wait_seconds', 'histogram', ['command']],
  ['game_db_statement_duration_seconds', 'histogram', ['statement']],
  ['game_db_round_trips_total', 'counter', ['statement']],
  ['game_db_pool_acquire_seconds', 'histogram', []],
  ['game_db_pool_connections', 'gauge', ['state']],
  ['game_db_pool_max', 'gauge', []],
  ['game_rooms_active', 'gauge', []],
  ['game_sockets_open', 'gauge', ['role']],
  ['game_ws_outbound_bytes_total', 'counter', ['kind', 'wire']],
  ['game_ws_outbound_frames_total', 'counter', ['kind', 'wire']],
  ['game_ws_evictions_total', 'counter', ['reason']],
  ['game_build_info', 'gauge', ['version', 'sha']],
  ['game_limit_refusals_total', 'counter', ['limit']],
  ['game_ws_silent_closes_total', 'counter', []],
  ['game_room_faults_total', 'counter', []],
  ['game_unhandled_rejections_total', 'counter', []],
  ['game_retention_removed_total', 'counter', ['table']],
  ['game_retention_failures_total', 'counter', []],
  ['process_start_time_seconds', 'gauge', []],
];

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('observability', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  describe('/metrics', () => {
    it('exposes every family of the contract with its type and labels', async () => {
      const room = await seatRoom(server, ['Ann']);
      await room.host.send('room.start');
      await room.players[0].nextEvent('question.open');
      await room.players[0].send('room.answer', { question: 0, choice: 0 });
      const m = await MetricsSnapshot.fetch(server.url);
      for (const [family, type, labels] of FAMILIES) {
        expect([family, m.types.get(family)]).toEqual([family, type]);
        if (family === 'game_ws_evictions_total') continue; // no eviction has happened: no series yet
        const sampleName = type === 'histogram' ? `${family}_count` : family;
        const sets = m.labelSets(sampleName);
        expect([family, sets.length > 0]).toEqual([family, true]);
        for (const label of labels) expect([family, label, sets.some((s) => label in s)]).toEqual([family, label, true]);
      }
      expect(m.value('game_build_info', { version: 'test', sha: 'test' })).toBe(1);
      closeAll(room);
    });

    it('gives _count N and a _sum equal to the durations the server measured, from two snapshots', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      const before = await MetricsSnapshot.fetch(server.url);
      const n = 7;
      for (let i = 0; i < n; i++) expect((await room.players[i % 2].send('ping')).status).toBe(200);
      const after = await MetricsSnapshot.fetch(server.url);
      const labels = { command: 'ping', status_class: '2xx' };
      const count =
        after.value('game_command_duration_seconds_count', labels) - before.value('game_command_duration_seconds_count', labels);
      const sum = after.value('game_command_duration_seconds_sum', labels) - before.value('game_command_duration_seconds_sum', labels);
      expect(count).toBe(n);
      const detail = await api.request('GET', `/admin/api/rooms/${room.code}`, undefined, admin);
      const measuredMs = detail.body.lastCommands.filter((c: any) => c.type === 'ping').map((c: any) => c.ms);
      expect(measuredMs).toHaveLength(n);
      const measuredSum = measuredMs.reduce((a: number, b: number) => a + b, 0) / 1000;
      expect(Math.abs(sum - measuredSum)).toBeLessThan(1e-9);
      // A ping is healthy: never labelled as a server error.
      expect(after.value('game_command_duration_seconds_count', { command: 'ping', status_class: '5xx' })).toBe(0);
      closeAll(room);
    });

    it('counts round trips per statement exactly as the statement log does', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob', 'Cy']);
      const before = await MetricsSnapshot.fetch(server.url);
      const log = server.runtime.meter.capture();
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      await Promise.all(room.players.map((p) => p.send('room.answer', { question: 0, choice: 1 })));
      const names = log.stop();
      const after = await MetricsSnapshot.fetch(server.url);
      for (const statement of new Set(names)) {
        const delta = after.value('game_db_round_trips_total', { statement }) - before.value('game_db_round_trips_total', { statement });
        expect([statement, delta]).toEqual([statement, names.filter((n) => n === statement).length]);
      }
      expect(names).toEqual(['JournalRepository.append', 'JournalRepository.append']);
      closeAll(room);
    });

    it('reads the pool gauges from the real pool as connections are checked out', async () => {
      const pool = server.app.get(Database).pool;
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      const busy = await MetricsSnapshot.fetch(server.url);
      const total = busy.value('game_db_pool_connections', { state: 'total' });
      const idle = busy.value('game_db_pool_connections', { state: 'idle' });
      expect(total - idle).toBeGreaterThanOrEqual(3);
      expect(busy.value('game_db_pool_max')).toBe(10);
      for (const c of clients) c.release();
      const free = await MetricsSnapshot.fetch(server.url);
      expect(
        free.value('game_db_pool_connections', { state: 'total' }) - free.value('game_db_pool_connections', { state: 'idle' }),
      ).toBeLessThan(total - idle);
    });
  });

  describe('admin API', () => {
    it.each(['/admin/api/overview', '/admin/api/rooms', '/admin/api/rooms/ABCDEF', '/admin/api/stream'])(
      'refuses %s without or with a wrong token (401)',
      async (path) => {
        expect((await api.request('GET', path)).status).toBe(401);
        const wrong = await api.request('GET', path, undefined, { authorization: 'Bearer nope' });
        expect(wrong).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      },
    );

    it('shows a live room with its mailbox depth, the pool, and per-command means', async () => {
      const room = await seatRoom(server, ['Ann']);
      await room.players[0].send('ping');
      const overview = await api.request('GET', '/admin/api/overview', undefined, admin);
      expect(overview.status).toBe(200);
      expect(overview.body).toMatchObject({ build: { version: 'test', sha: 'test' }, pool: { max: 10 } });
      expect(overview.body.sockets.player).toBeGreaterThanOrEqual(1);
      expect(overview.body.commands.find((c: any) => c.command === 'ping').count).toBeGreaterThanOrEqual(1);
      const list = await api.request('GET', '/admin/api/rooms', undefined, admin);
      const row = list.body.rooms.find((r: any) => r.code === room.code);
      expect(row).toMatchObject({ phase: 'lobby', playersConnected: 1, players: 1, question: null, mailboxDepth: 0 });
      const detail = await api.request('GET', `/admin/api/rooms/${room.code}`, undefined, admin);
      expect(detail.body.players).toEqual([{ id: room.playerIds[0], name: 'Ann', connected: true, score: 0 }]);
      expect(detail.body.lastCommands.at(-1)).toMatchObject({ type: 'ping', status: 200, roundTrips: 0 });
      closeAll(room);
    });

    it('kicks a player (4003) and closes a room (4004) for an operator', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob']);
      const kicked = await api.request('POST', `/admin/api/rooms/${room.code}/kick`, { playerId: room.playerIds[0] }, admin);
      expect(kicked.status).toBe(204);
      expect((await room.players[0].waitClosed()).code).toBe(4003);
      expect((await api.request('POST', `/admin/api/rooms/${room.code}/kick`, { playerId: room.playerIds[0] }, admin)).status).toBe(404);
      expect((await api.request('POST', `/admin/api/rooms/${room.code}/close`, undefined, admin)).status).toBe(204);
      expect((await room.players[1].waitClosed()).code).toBe(4004);
      expect((await api.request('POST', `/admin/api/rooms/${room.code}/close`, undefined, admin)).status).toBe(404);
    });

    it('answers a kick in a room of a game that kicks no one as an unknown command, and the room goes on', async () => {
      const table = (await api.request('POST', '/api/rooms', { game: 'cards', name: 'Tomas' })).body;
      const kick = await api.request('POST', `/admin/api/rooms/${table.code}/kick`, { playerId: table.seat }, admin);
      expect(kick).toMatchObject({ status: 404, body: { code: 'unknown_type' } });
      expect((await api.request('GET', `/api/rooms/${table.code}`)).status).toBe(200);
      expect((await api.request('POST', `/admin/api/rooms/${table.code}/close`, undefined, admin)).status).toBe(204);
    });

    it('pushes the overview, the rooms, the instances and a room by server-sent events', async () => {
      const room = await seatRoom(server, ['Ann']);
      const controller = new AbortController();
      const res = await fetch(`${server.url}/admin/api/stream?room=${room.code}`, { headers: admin, signal: controller.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const seen = new Set<string>();
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && !(seen.has('overview') && seen.has('rooms') && seen.has('instances') && seen.has('room'))) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        for (const m of text.matchAll(/^event: (\S+)$/gm)) seen.add(m[1]);
      }
      controller.abort();
      expect([...seen].sort()).toEqual(['instances', 'overview', 'room', 'rooms']);
      const roomEvent = /^event: room\n(?:\w+: .*\n)*?data: (.*)$/m.exec(text)![1];
      expect(JSON.parse(roomEvent)).toMatchObject({ code: room.code, players: [{ name: 'Ann' }] });
      closeAll(room);
    });
  });

  it('says which build it runs in /health and game_build_info alike', async () => {
    const health = await api.request('GET', '/health');
    const m = await MetricsSnapshot.fetch(server.url);
    expect(m.value('game_build_info', { version: health.body.version, sha: health.body.sha })).toBe(1);
  });
});
