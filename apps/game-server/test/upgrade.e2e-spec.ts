import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { ClusterScript, SeatClient, HttpApi } from '@app/bot-kit';
import { HUMAN_SEAT, openingCheckpoint, tableSettings } from '@app/games/cards';
import { SeatTokens } from '@app/gateway';
import { openDataSource, StatementMeter } from '@app/persistence';
import { BUILTIN_DECK_ID, MIGRATIONS } from '../../../migrations';
import { RetirePreJournal1764892800000 } from '../../../migrations/1764892800000-retire-pre-journal';
import { createTestDatabase } from '../../../test/support/database';
import { requireBuiltServer, ServerProcess } from '../../../test/support/server-process';
import { finishedGames, journaled, queryDb } from './support';

// An existing database moves forward (docs/design.md, "Upgrading"; docs/operations.md). The
// database here is what the builds before this one left, and the new build starts on it, migrates
// it and serves it:
// - the build before the journal: its migrations, and rows written the way its repositories wrote
//   them: a finished game with its results, a room mid-question with one answer acknowledged, and
//   a card table between hands, none of them ever snapshotted;
// - the build just before this one: the journal's migrations, and rooms it opened through the
//   journal (a trivia room with two players seated, a card table).
// Migration 1764892800000 closes the rooms without a snapshot (their codes answer 410), keeps
// every finished game, and drops the old tables; the journaled rooms play on.

/** The first migration of the journal's rooms: everything before it is the schema of the build before the journal. */
const FIRST_NEW = MIGRATIONS.findIndex((m) => m.name === 'JournalRooms1764849600000');
/** The migration that retires the rooms from before the journal: everything before it is the schema of the build before this one. */
const RETIRE = MIGRATIONS.findIndex((m) => m.name === RetirePreJournal1764892800000.name);
const REPO = resolve(__dirname, '../../..');

const now = Date.now();
const ids = {
  finished: randomUUID(),
  live: randomUUID(),
  table: randomUUID(),
  ann: randomUUID(),
  bob: randomUUID(),
  cy: randomUUID(),
  human: 'human-1',
};
// Codes a player could type (no look-alikes: room-code.ts), so that the HTTP routes take them.
const codes = { finished: 'PREFNS', live: 'PREQST', table: 'PRETBV' };
const OLD_TABLES = [
  'players',
  'games',
  'answers',
  'question_closes',
  'rematch_votes',
  'game_results',
  'late_deadlines',
  'table_actions',
  'table_rebuys',
];

/** The rooms the build before this one opened through the journal, with their openers' tokens. */
interface JournaledRooms {
  readonly trivia: {
    readonly code: string;
    readonly roomId: string;
    readonly hostToken: string;
    readonly players: readonly { readonly playerId: string; readonly playerToken: string }[];
  };
  readonly table: { readonly code: string; readonly roomId: string; readonly token: string };
}

/**
 * Plays the build just before this one on the database that `oldDatabase` left: it applies the
 * migrations up to this one, opens journaled rooms over HTTP, and stops. The test has no copy of
 * that build, so it runs the server built from this tree instead. To keep the retire migration
 * from running yet, the test first records it as applied, and removes that record afterwards.
 * This is fair because opening a journaled room is the same code in both builds: the retire
 * migration changes none of it.
 */
async function journaledByTheBuildBefore(databaseUrl: string): Promise<JournaledRooms> {
  await (await openDataSource({ url: databaseUrl, poolMax: 1, migrations: MIGRATIONS.slice(0, RETIRE) }, new StatementMeter())).destroy();
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const retire = new RetirePreJournal1764892800000();
  const mark = [Number(/\d+$/.exec(retire.name)![0]), retire.name];
  await db.query('INSERT INTO migrations (timestamp, name) VALUES ($1, $2)', mark);
  const before = await ServerProcess.create({ databaseUrl });
  try {
    await before.start();
    const api = new HttpApi(before.url);
    const trivia = await api.createRoom({ hostName: 'Jo', questionCount: 2 });
    const players = [await api.join(trivia.code, 'Pia'), await api.join(trivia.code, 'Raf')];
    const table = (await api.request('POST', '/api/rooms', { game: 'cards', name: 'Tomas', actionSeconds: 60, handPauseMs: 0 })).body;
    await before.kill('SIGTERM');
    return { trivia: { ...trivia, players }, table: { code: table.code, roomId: table.roomId, token: table.token } };
  } finally {
    await before.dispose();
    await db.query('DELETE FROM migrations WHERE name = $1', [retire.name]);
    await db.end();
  }
}

/**
 * The database the old build left: its migrations, and rows as its repositories wrote them. Returns
 * a connection to it and the two questions of the built-in deck its games played.
 */
async function oldDatabase(url: string): Promise<{ db: Client; deck: { id: number; correct: number }[] }> {
  const ds = await openDataSource({ url, poolMax: 1, migrations: MIGRATIONS.slice(0, FIRST_NEW) }, new StatementMeter());
  await ds.destroy();
  const db = new Client({ connectionString: url });
  await db.connect();
  const deck: { id: number; correct: number }[] = (
    await db.query('SELECT id::int AS id, correct FROM questions WHERE deck_id = $1 ORDER BY position LIMIT 2', [BUILTIN_DECK_ID])
  ).rows;
  /** A trivia room as the old RoomRepository, PlayerRepository, GameRepository and AnswerRepository wrote it. */
  async function oldRoom(id: string, code: string, phase: string, closed: boolean): Promise<void> {
    await db.query(
      `INSERT INTO rooms (id, code, host_name, deck_id, question_count, seconds_per_question, reveal_seconds, max_players, min_players, phase, games_played, closed_at, closed_reason)
       VALUES ($1, $2, 'Hana', $3, 2, 300, 0, 8, 2, $4, 1, CASE WHEN $5 THEN now() END, CASE WHEN $5 THEN 'host_closed' END)`,
      [id, code, BUILTIN_DECK_ID, phase, closed],
    );
  }

  {
    // 1. A game that finished (and its room, closed since): its results must survive.
    await oldRoom(ids.finished, codes.finished, 'closed', true);
    const fin = randomUUID();
    const oldPlayer = randomUUID();
    await db.query(`INSERT INTO players (id, room_id, name) VALUES ($1, $2, 'Olga')`, [oldPlayer, ids.finished]);
    await db.query(
      `INSERT INTO games (id, room_id, game_no, question_ids, roster, started_at, finished_at) VALUES ($1, $2, 1, $3, $4, now() - interval '1 hour', now() - interval '50 minutes')`,
      [fin, ids.finished, deck.map((q) => q.id), [oldPlayer]],
    );
    for (const [i, q] of deck.entries()) {
      await db.query(
        `INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id) VALUES ($1, $2, $3, $4, 1000, true, 950, $5)`,
        [fin, i, oldPlayer, q.correct, `olga-q${i}`],
      );
    }
    await db.query(
      `INSERT INTO game_results (game_id, player_id, name, score, correct, rank, elapsed_ms) VALUES ($1, $2, 'Olga', 1900, 2, 1, 2000)`,
      [fin, oldPlayer],
    );

    // 2. A room mid-question: three seated, the first question open for five minutes, Ann's answer acknowledged.
    await oldRoom(ids.live, codes.live, 'question', false);
    for (const [name, id] of [
      ['Ann', ids.ann],
      ['Bob', ids.bob],
      ['Cy', ids.cy],
    ])
      await db.query('INSERT INTO players (id, room_id, name) VALUES ($1, $2, $3)', [id, ids.live, name]);
    const live = randomUUID();
    await db.query(
      `INSERT INTO games (id, room_id, game_no, question_ids, roster, started_at, started_at_ms, start_command_id) VALUES ($1, $2, 1, $3, $4, now(), $5, 'host-start')`,
      [live, ids.live, deck.map((q) => q.id), [ids.ann, ids.bob, ids.cy], now - 2000],
    );
    await db.query(
      `INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id, answered_at_ms) VALUES ($1, 0, $2, $3, 1000, true, 998, 'ann-q0', $4)`,
      [live, ids.ann, deck[0].correct, now - 1000],
    );

    // 3. A card table between hands, as the old CardTableRepository opened it.
    const settings = tableSettings({ name: 'Tomas', seed: 42, actionSeconds: 60, handPauseMs: 0 }, 0);
    await db.query(
      `INSERT INTO rooms (id, code, host_name, game, player_id, table_settings, checkpoint, phase) VALUES ($1, $2, 'Tomas', 'cards', $3, $4, $5, 'between')`,
      [ids.table, codes.table, ids.human, JSON.stringify(settings), JSON.stringify(openingCheckpoint(settings, now - 1000))],
    );
  }

  return { db, deck };
}

describe('upgrading a database the builds before this one left', () => {
  let server: ServerProcess;
  let db: Client;
  let deck: { id: number; correct: number }[];
  let journaledRooms: JournaledRooms;
  let api: HttpApi;

  beforeAll(async () => {
    server = await ServerProcess.create();
    ({ db, deck } = await oldDatabase(server.databaseUrl));
    journaledRooms = await journaledByTheBuildBefore(server.databaseUrl);
    await server.start();
    api = new HttpApi(server.url);
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await server?.dispose();
  });

  const connect = (token: string) => SeatClient.connect(server.url, token, { timeoutMs: 10_000 });
  const seat = (roomId: string, code: string, role: 'host' | 'player', seatId: string) =>
    new SeatTokens(server.tokenSecret).issue({ roomId, code, role, seat: seatId });

  it('keeps every finished game: its summary is in finished_games, and the leaderboard still counts it', async () => {
    const [summary] = await finishedGames(server, ids.finished);
    expect(summary).toMatchObject({
      code: codes.finished,
      hostName: 'Hana',
      no: 1,
      standings: [{ playerId: expect.any(String), name: 'Olga', score: 1900, correct: 2, rank: 1 }],
    });
    expect(summary.questions.map((q: any) => q.answers.map((a: any) => [a.name, a.choice, a.correct, a.points]))).toEqual(
      deck.map((q) => [['Olga', q.correct, true, 950]]),
    );
    const board = await api.request('GET', '/api/leaderboard');
    expect(board.body.players).toContainEqual(expect.objectContaining({ name: 'Olga', games: 1, wins: 1, totalScore: 1900 }));
  });

  it('closes the rooms that had no snapshot: their codes answer 410 room_gone, and a seat of one is told the room is closed', async () => {
    expect(
      await queryDb(server, 'SELECT trim(code) AS code, closed_reason FROM rooms WHERE id = ANY($1::uuid[]) ORDER BY code', [
        [ids.finished, ids.live, ids.table],
      ]),
    ).toEqual([
      { code: codes.finished, closed_reason: 'host_closed' },
      { code: codes.live, closed_reason: 'upgrade' },
      { code: codes.table, closed_reason: 'upgrade' },
    ]);
    for (const code of [codes.live, codes.table])
      expect(await api.request('GET', `/api/rooms/${code}`)).toMatchObject({ status: 410, body: { code: 'room_gone' } });
    expect(await api.request('POST', `/api/rooms/${codes.live}/players`, { name: 'Late' })).toMatchObject({
      status: 410,
      body: { code: 'room_gone' },
    });
    const ann = await connect(seat(ids.live, codes.live, 'player', ids.ann));
    expect((await ann.waitClosed()).code).toBe(4004);
  });

  it('drops the old tables, the old columns of rooms and advance_rooms', async () => {
    expect(
      await queryDb(
        server,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1::text[])`,
        [OLD_TABLES],
      ),
    ).toEqual([]);
    const columns = (
      await queryDb<{ column_name: string }>(
        server,
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'rooms' ORDER BY column_name`,
      )
    ).map((c) => c.column_name);
    expect(columns).toEqual([
      'closed_at',
      'closed_reason',
      'code',
      'created_at',
      'deck',
      'deck_hash',
      'deck_id',
      'game',
      'id',
      'pruned_at',
      'seed',
      'settings',
    ]);
    expect(await queryDb(server, `SELECT proname FROM pg_proc WHERE proname = 'advance_rooms'`)).toEqual([]);
  });

  it('plays on in the trivia room the build before opened through the journal: its seats are kept, and its game starts', async () => {
    const room = journaledRooms.trivia;
    const host = await connect(room.hostToken);
    const players = await Promise.all(room.players.map((p) => connect(p.playerToken)));
    const state = (await host.nextEvent('room.state')).data;
    expect(state).toMatchObject({ phase: 'lobby' });
    expect(state.players.map((p: any) => p.name).sort()).toEqual(['Pia', 'Raf']);
    for (const p of players) await p.nextEvent('room.state');
    expect((await host.send('room.start', {})).status).toBe(200);
    expect((await players[0].nextEvent('question.open')).data).toMatchObject({ index: 0 });
    expect(await journaled(server, room.roomId, 'room.start')).toHaveLength(1);
    for (const c of [host, ...players]) c.close();
  });

  it('plays on at the card table the build before opened through the journal: its human acts', async () => {
    const human = await connect(journaledRooms.table.token);
    const snapshot = (await human.nextEvent('table.snapshot')).data;
    if (snapshot.hand?.toAct !== HUMAN_SEAT) await human.nextEvent('time_bank', (e) => e.data.seat === HUMAN_SEAT);
    let reply = await human.send('table.act', { action: 'check' }, 'after-upgrade');
    if (reply.status === 409) reply = await human.send('table.act', { action: 'call' }, 'after-upgrade-call');
    expect(reply.status).toBe(200);
    expect(await journaled(server, journaledRooms.table.roomId, 'table.act')).toHaveLength(1);
    human.close();
  });

  it('brings the journaled rooms back after kill -9, and the closed ones stay closed', async () => {
    await server.kill('SIGKILL');
    await server.start();
    api = new HttpApi(server.url);
    const host = await connect(journaledRooms.trivia.hostToken);
    expect((await host.nextEvent('room.state')).data).toMatchObject({ phase: 'question' });
    host.close();
    expect(await api.request('GET', `/api/rooms/${codes.live}`)).toMatchObject({ status: 410, body: { code: 'room_gone' } });
  });
});

// The operator's path (docs/design.md, "Upgrading"): the old instances drained and stopped, the new
// build started as a cluster by the cluster script on the same database, which its instances
// migrate; the rooms the build before left open through the journal are served again, through the
// proxy, and those it never snapshotted answer as closed.
describe('upgrading a cluster: the new build started by the cluster script on the old database', () => {
  // The secret of the server that stood in for the build before: the tokens it issued stay good.
  const TOKEN_SECRET = 'recovery-test-token-secret-0123456789abcdef';
  let cluster: ClusterScript;
  let db: Client;
  let journaledRooms: JournaledRooms;

  beforeAll(async () => {
    requireBuiltServer();
    const url = await createTestDatabase();
    ({ db } = await oldDatabase(url));
    journaledRooms = await journaledByTheBuildBefore(url);
    const env = { NODE_ENV: 'test', INSTANCE_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'info', TOKEN_SECRET };
    cluster = await ClusterScript.start(
      REPO,
      2,
      env,
      () => undefined,
      { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() },
      { databaseUrl: url },
    );
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await cluster?.stop();
  });

  it('serves the journaled room through the proxy, answers the unsnapshotted one as closed, and keeps the finished game', async () => {
    const room = journaledRooms.trivia;
    const host = await SeatClient.connect(cluster.proxy, room.hostToken, { room: room.code, timeoutMs: 10_000 });
    expect((await host.nextEvent('room.state')).data).toMatchObject({ phase: 'lobby' });
    host.close();
    expect(await new HttpApi(cluster.proxy).request('GET', `/api/rooms/${codes.live}`)).toMatchObject({
      status: 410,
      body: { code: 'room_gone' },
    });
    const [summary] = (await db.query('SELECT summary FROM finished_games WHERE room_id = $1', [ids.finished])).rows.map((r) => r.summary);
    expect(summary).toMatchObject({ code: codes.finished, standings: [{ name: 'Olga', score: 1900 }] });
  });
});
