import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { RefusalRecorder } from '../../../libs/server/src/refusals/refusal-recorder';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom, SeatedRoom, sleep } from './support';

// The console remembers (issue 24, item 4): finished games, one with its results, and any room's
// refused commands, from the admin API against the real server and database.

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

function admin(server: RunningServer) {
  const api = new HttpApi(server.url);
  return (path: string, headers: Record<string, string> = ADMIN) => api.request('GET', `/admin/api${path}`, undefined, headers);
}

/** A one-question trivia game played to its end by `names`; the room stays open (finished). */
async function playedTrivia(server: RunningServer, names: string[]): Promise<{ room: SeatedRoom; resultsId: string }> {
  const room = await seatRoom(server, names, { questionCount: 1, revealSeconds: 0, secondsPerQuestion: 60 });
  await room.host.send('room.start');
  const open = await room.host.nextEvent('question.open');
  // The first player answers right when it can: the correct choice is not known here, so each picks its own.
  await Promise.all(room.players.map((p, i) => p.send('room.answer', { question: 0, choice: i % open.data.choices.length })));
  const finished = await room.host.nextEvent('game.finished');
  return { room, resultsId: finished.data.resultsId };
}

/** A tic-tac-toe board won by X in five moves. */
async function playedTicTacToe(server: RunningServer): Promise<{ code: string; roomId: string }> {
  const api = new HttpApi(server.url);
  const opened = (await api.request('POST', '/api/rooms', { game: 'tictactoe', name: 'Xena' })).body;
  const o = await api.join(opened.code, 'Otto');
  const x = await SeatClient.connect(server.url, opened.token);
  const oc = await SeatClient.connect(server.url, o.playerToken);
  for (const [client, cell] of [
    [x, 0],
    [oc, 3],
    [x, 1],
    [oc, 4],
    [x, 2],
  ] as const)
    expect((await client.send('ttt.move', { cell })).status).toBe(200);
  x.close();
  oc.close();
  return { code: opened.code, roomId: opened.roomId };
}

describe('GET /admin/api/finished', () => {
  let server: RunningServer;
  let get: ReturnType<typeof admin>;
  const played: { code: string; resultsId?: string; roomId: string }[] = [];
  withTestServer((s) => ((server = s), (get = admin(s))));

  beforeAll(async () => {
    for (const names of [['Ann', 'Bob'], ['Cy']]) {
      const { room, resultsId } = await playedTrivia(server, names);
      played.push({ code: room.code, resultsId, roomId: room.roomId });
      closeAll(room);
    }
    played.push(await playedTicTacToe(server));
  });

  it('lists every finished game newest first, with its code, game, host, players, start, finish, winner and results id', async () => {
    const { status, body } = await get('/finished');
    expect(status).toBe(200);
    expect(body.next).toBeNull();
    expect(body.games.map((g: any) => g.code)).toEqual([...played].reverse().map((p) => p.code));
    const [ttt, cy, annBob] = body.games;
    const standings = (await new HttpApi(server.url).request('GET', `/api/results/${played[0].resultsId}`)).body.standings;
    expect(annBob).toEqual({
      id: played[0].resultsId,
      resultsId: played[0].resultsId,
      code: played[0].code,
      game: 'trivia',
      number: 1,
      hostName: 'Host',
      players: { count: 2, names: standings.map((s: any) => s.name) },
      winner: standings
        .filter((s: any) => s.rank === 1)
        .map((s: any) => s.name)
        .join(', '),
      startedAt: expect.any(Number),
      startedFrom: 'summary',
      finishedAt: expect.any(Number),
    });
    expect(annBob.startedAt).toBeLessThanOrEqual(annBob.finishedAt);
    expect(cy).toMatchObject({ game: 'trivia', players: { count: 1, names: ['Cy'] }, winner: 'Cy' });
    // Tic-tac-toe's summary holds no start and no host: the start is when its room opened.
    const [opened] = await queryDb(server, `SELECT (extract(epoch FROM created_at) * 1000)::float8 AS at FROM rooms WHERE id = $1`, [
      played[2].roomId,
    ]);
    expect(ttt).toMatchObject({
      game: 'tictactoe',
      hostName: null,
      players: { count: 2, names: ['Xena', 'Otto'] },
      winner: 'Xena',
      startedAt: opened.at,
      startedFrom: 'room_opened',
    });
  });

  it('filters by code, normalized like room codes', async () => {
    const { body } = await get(`/finished?code=${encodeURIComponent(` ${played[1].code.toLowerCase()} `)}`);
    expect(body.games.map((g: any) => g.code)).toEqual([played[1].code]);
    expect((await get('/finished?code=ZZZZZZ')).body).toEqual({ games: [], next: null });
  });

  it('filters by a range of dates or instants', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/finished?from=${today}&to=${today}`)).body.games).toHaveLength(3);
    expect((await get(`/finished?to=${yesterday}`)).body.games).toHaveLength(0);
    // Between the first game's finish and the second's: only the first.
    const all = (await get('/finished')).body.games;
    const first = all[2];
    const to = new Date(first.finishedAt + 1).toISOString();
    expect((await get(`/finished?from=${yesterday}&to=${encodeURIComponent(to)}`)).body.games.map((g: any) => g.id)).toEqual([first.id]);
  });

  it('pages with a keyset cursor: every game once, in order, and no next after the last', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const { status, body }: { status: number; body: any } = await get(`/finished?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      expect(body.games.length).toBeLessThanOrEqual(1);
      seen.push(...body.games.map((g: any) => g.code));
      cursor = body.next;
      pages++;
    }
    expect(seen).toEqual([...played].reverse().map((p) => p.code));
    expect(pages).toBe(3);
  });

  it.each([
    ['cursor=zzz', 'cursor'],
    [`cursor=${Buffer.from('12.not-a-uuid').toString('base64url')}`, 'cursor'],
    ['cursor=a%2Bb', 'cursor'],
    ['from=yesterday', 'from'],
    ['from=2026-02-31', 'from'],
    ['to=2026-12-01T10:00:00', 'to'],
    ['from=2026-12-02&to=2026-12-01', 'to'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=5&limit=6', 'limit'],
    ['code=AB', 'code'],
    ['code=OOOOOO', 'code'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const { status, body } = await get(`/finished?${query}`);
    expect(status).toBe(400);
    expect(body.code).toBe('bad_data');
    expect(body.message.startsWith(`${field} `)).toBe(true);
  });

  it('reads one finished game with the results the public link gives, and past the public window too', async () => {
    const id = played[0].resultsId!;
    const api = new HttpApi(server.url);
    const { readableUntil, ...publicResults } = (await api.request('GET', `/api/results/${id}`)).body;
    const { status, body } = await get(`/finished/${id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, code: played[0].code, game: 'trivia', results: publicResults });
    // The console and the public link agree on when the link stops answering.
    expect(body.publicUntil).toBe(Math.floor(body.finishedAt) + 30 * 86_400_000);
    expect(readableUntil).toBe(body.publicUntil);
    await queryDb(server, `UPDATE finished_games SET finished_at = now() - interval '31 days' WHERE id = $1`, [id]);
    expect((await api.request('GET', `/api/results/${id}`)).status).toBe(404);
    expect(await get(`/finished/${id}`)).toMatchObject({ status: 200, body: { id, results: publicResults } });
    // A game that reports no results (tic-tac-toe) is shown without them.
    const ttt = (await get(`/finished?code=${played[2].code}`)).body.games[0];
    expect((await get(`/finished/${ttt.id}`)).body).toMatchObject({ id: ttt.id, results: null });
  });

  it('answers 404 for an id no finished game has, or one that is not an id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect(await get(`/finished/${id}`)).toMatchObject({ status: 404, body: { code: 'finished_game_not_found' } });
    }
  });

  it('answers 401 without the admin token, or with a wrong one', async () => {
    for (const path of ['/finished', `/finished/${played[0].resultsId}`, `/rooms/${played[0].code}/refusals`]) {
      expect((await get(path, {})).status).toBe(401);
      expect((await get(path, { authorization: 'Bearer wrong-token' })).status).toBe(401);
    }
  });
});

describe('GET /admin/api/rooms/{code}/refusals', () => {
  let server: RunningServer;
  let get: ReturnType<typeof admin>;
  withTestServer((s) => ((server = s), (get = admin(s))), { refusalsPerRoomPerMinute: 30 });

  const recorder = () => server.app.get(RefusalRecorder);

  it('records every refusal a room answers, with who, what and why, newest first', async () => {
    const room = await seatRoom(server, ['Ann']);
    const [ann] = room.players;
    const told: { by: string; playerId: string | null; name: string | null; type: string; reply: any }[] = [];
    const send = async (client: SeatClient, by: string, type: string, data: unknown = {}) => {
      const reply = await client.send(type, data);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      const seat = client === ann ? room.playerIds[0] : null;
      told.push({ by, playerId: seat, name: seat ? 'Ann' : null, type, reply });
    };
    await send(ann, 'player', 'room.fly'); // unknown type (the gate)
    await send(ann, 'player', 'room.start'); // wrong role
    await send(ann, 'player', 'room.answer', { question: 'first' }); // bad data
    await send(ann, 'player', 'room.answer', { question: 0, choice: 0 }); // no question open: the rules' refusal
    await send(room.host, 'host', 'room.kick', { playerId: 'nobody' }); // the rules' refusal of the host
    const notJson = await ann.sendRaw('{not json');
    told.push({ by: 'player', playerId: room.playerIds[0], name: 'Ann', type: '', reply: notJson });
    // An operator's kick of nobody is refused by the room too.
    const kick = await new HttpApi(server.url).request('POST', `/admin/api/rooms/${room.code}/kick`, { playerId: 'nobody' }, ADMIN);
    expect(kick.status).toBe(404);
    await recorder().flush();

    const { status, body } = await get(`/rooms/${room.code.toLowerCase()}/refusals`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: room.code, roomId: room.roomId, live: true, keptDays: 7, next: null });
    const expected = [
      ...told.map((t) => ({
        by: t.by,
        playerId: t.playerId,
        name: t.name,
        type: t.type,
        code: t.reply.error.code,
        status: t.reply.status,
        message: t.reply.error.message,
      })),
      // The room's own status for it (the host's kick of nobody got the same), not the HTTP one.
      {
        by: 'operator',
        playerId: null,
        name: null,
        type: 'room.kick',
        code: kick.body.code,
        status: told[4].reply.status,
        message: kick.body.message,
      },
    ].reverse();
    expect(body.refusals.map(({ at: _at, ...r }: any) => r)).toEqual(expected);
    const times = body.refusals.map((r: any) => r.at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    closeAll(room);
  });

  it('records the socket’s rate limit (too_fast), each room at most its share a minute; the rest are counted as dropped', async () => {
    const room = await seatRoom(server, ['Bob']);
    const before = await dropped(server, 'room_cap');
    // Past the socket's burst of 40 in one tick: some are refused too_fast before the room sees them.
    const replies = await Promise.all(Array.from({ length: 60 }, () => room.players[0].send('ping')));
    const tooFast = replies.filter((r) => r.error?.code === 'too_fast').length;
    expect(tooFast).toBeGreaterThan(0);
    await recorder().flush();
    const rows = await queryDb(server, `SELECT code FROM refused_commands WHERE room_id = $1`, [room.roomId]);
    expect(rows).toEqual(Array(Math.min(tooFast, 30)).fill({ code: 'too_fast' }));
    expect((await dropped(server, 'room_cap')) - before).toBe(Math.max(0, tooFast - 30));
    closeAll(room);
  });

  it('pages with a keyset cursor: every refusal once, newest first', async () => {
    const room = await seatRoom(server, ['Cy']);
    for (let i = 0; i < 7; i++) await room.players[0].send(`room.nothing${i}`);
    await recorder().flush();
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const { body }: { body: any } = await get(`/rooms/${room.code}/refusals?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.refusals.length).toBeLessThanOrEqual(3);
      seen.push(...body.refusals.map((r: any) => r.type));
      cursor = body.next;
    }
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `room.nothing${6 - i}`));
    closeAll(room);
  });

  it('reads a closed room’s refusals, and refuses bad queries (400) and codes no room had (404)', async () => {
    const room = await seatRoom(server, ['Dee']);
    await room.players[0].send('room.fly');
    await recorder().flush();
    expect((await new HttpApi(server.url).request('POST', `/admin/api/rooms/${room.code}/close`, {}, ADMIN)).status).toBe(204);
    expect((await get(`/rooms/${room.code}/refusals`)).body).toMatchObject({
      live: false,
      refusals: [{ type: 'room.fly', code: 'unknown_type' }],
    });
    expect(await get('/rooms/ZZZZZZ/refusals')).toMatchObject({ status: 404, body: { code: 'room_not_found' } });
    for (const [path, field] of [
      ['/rooms/AB/refusals', 'code'],
      [`/rooms/${room.code}/refusals?limit=0`, 'limit'],
      [`/rooms/${room.code}/refusals?cursor=${Buffer.from('1.x').toString('base64url')}`, 'cursor'],
    ]) {
      const { status, body } = await get(path);
      expect([path, status, body.code, body.message.split(' ')[0]]).toEqual([path, 400, 'bad_data', field]);
    }
    closeAll(room);
  });

  it('keeps refusals for the window: older rows are not shown, and the next write and the start-up prune delete them', async () => {
    const room = await seatRoom(server, ['Eve']);
    for (let i = 0; i < 3; i++) await room.players[0].send('room.fly');
    await recorder().flush();
    await queryDb(server, `UPDATE refused_commands SET at = now() - interval '8 days' WHERE room_id = $1`, [room.roomId]);
    expect((await get(`/rooms/${room.code}/refusals`)).body.refusals).toEqual([]);
    // Another room's refusal is written: its statement deletes the expired rows.
    const other = await seatRoom(server, ['Fay']);
    await other.players[0].send('room.fly');
    await recorder().flush();
    expect(await queryDb(server, `SELECT count(*)::int AS n FROM refused_commands WHERE room_id = $1`, [room.roomId])).toEqual([{ n: 0 }]);
    // What expired since is deleted at start (pruneOnce), written or not.
    await queryDb(server, `UPDATE refused_commands SET at = now() - interval '8 days' WHERE room_id = $1`, [other.roomId]);
    await recorder().pruneOnce();
    expect(await queryDb(server, `SELECT count(*)::int AS n FROM refused_commands WHERE room_id = $1`, [other.roomId])).toEqual([{ n: 0 }]);
    closeAll(room);
    closeAll(other);
  });

  it('costs a durable command nothing: an answer refused beside one accepted still commits in one statement, and an idle server then writes nothing', async () => {
    const room = await seatRoom(server, ['Gus', 'Hal']);
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    const log = server.runtime.meter.capture();
    const [good, bad] = await Promise.all([
      room.players[0].send('room.answer', { question: 0, choice: 0 }),
      room.players[1].send('room.answer', { question: 7, choice: 0 }),
    ]);
    expect([good.status, bad.status >= 400]).toEqual([200, true]);
    expect(log.stop()).toEqual(['JournalRepository.append']);
    // The refusal is written a second later, by itself.
    const writing = server.runtime.meter.capture();
    await recorder().flush();
    expect(writing.stop()).toEqual(['RefusalRepository.record']);
    expect(await queryDb(server, `SELECT seat, name, code FROM refused_commands WHERE room_id = $1`, [room.roomId])).toEqual([
      { seat: room.playerIds[1], name: 'Hal', code: bad.error!.code },
    ]);
    // Nothing buffered, nothing sent: two flush intervals of an idle server.
    const idle = server.runtime.meter.capture();
    await sleep(2100);
    expect(idle.stop()).toEqual([]);
    closeAll(room);
  });
});

async function dropped(server: RunningServer, reason: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`game_refused_commands_dropped_total{reason="${reason}"}`));
  return Number(line?.split(' ')[1]);
}
