import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { ClusterScript, SeatClient, HttpApi } from '@app/bot-kit';
import { HUMAN_SEAT, openingCheckpoint, tableSettings } from '@app/games/cards';
import { SeatTokens } from '@app/gateway';
import { openDataSource, StatementMeter } from '@app/persistence';
import { BUILTIN_DECK_ID, MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';
import { requireBuiltServer, ServerProcess } from '../../../test/support/server-process';
import { finishedGames, journaled, queryDb } from './support';

// An existing database moves forward (docs/design.md, "Upgrading"): the server of the release
// before the journal is stopped (its rooms stay open in PostgreSQL), and the new build starts on
// the same database, migrates it and serves them. The database here is what the old build left:
// its migrations, and rows written the way its repositories wrote them: a finished game with its
// results, a room mid-question with one answer acknowledged, and a card table between hands.

/** The first migration of the journal's rooms: everything before it is the old build's schema. */
const FIRST_NEW = MIGRATIONS.findIndex((m) => m.name === 'JournalRooms1764849600000');
const REPO = resolve(__dirname, '../../..');

const now = Date.now();
const ids = { finished: randomUUID(), live: randomUUID(), table: randomUUID(), ann: randomUUID(), bob: randomUUID(), cy: randomUUID(), human: 'human-1' };
const codes = { finished: 'OLDFIN', live: 'OLDLIV', table: 'OLDTBL' };

/**
 * The database the old build left: its migrations, and rows as its repositories wrote them. Returns
 * a connection to it and the two questions of the built-in deck its games played.
 */
async function oldDatabase(url: string): Promise<{ db: Client; deck: { id: number; correct: number }[] }> {
  const ds = await openDataSource({ url, poolMax: 1, migrations: MIGRATIONS.slice(0, FIRST_NEW) }, new StatementMeter());
  await ds.destroy();
  const db = new Client({ connectionString: url });
  await db.connect();
  const deck: { id: number; correct: number }[] = (await db.query('SELECT id::int AS id, correct FROM questions WHERE deck_id = $1 ORDER BY position LIMIT 2', [BUILTIN_DECK_ID])).rows;
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
    await db.query(`INSERT INTO game_results (game_id, player_id, name, score, correct, rank, elapsed_ms) VALUES ($1, $2, 'Olga', 1900, 2, 1, 2000)`, [fin, oldPlayer]);

    // 2. A room mid-question: three seated, the first question open for five minutes, Ann's answer acknowledged.
    await oldRoom(ids.live, codes.live, 'question', false);
    for (const [name, id] of [['Ann', ids.ann], ['Bob', ids.bob], ['Cy', ids.cy]]) await db.query('INSERT INTO players (id, room_id, name) VALUES ($1, $2, $3)', [id, ids.live, name]);
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

describe('upgrading a database the build before the journal left', () => {
  let server: ServerProcess;
  let db: Client;
  let deck: { id: number; correct: number }[];

  beforeAll(async () => {
    server = await ServerProcess.create();
    ({ db, deck } = await oldDatabase(server.databaseUrl));
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await db?.end();
    await server?.dispose();
  });

  const tokens = () => new SeatTokens(server.tokenSecret);
  const connect = (roomId: string, code: string, role: 'host' | 'player', seat: string) =>
    SeatClient.connect(server.url, tokens().issue({ roomId, code, role, seat }), { timeoutMs: 10_000 });

  it('keeps every finished game: its summary is in finished_games, and the leaderboard still counts it', async () => {
    const [summary] = await finishedGames(server, ids.finished);
    expect(summary).toMatchObject({ code: codes.finished, hostName: 'Hana', no: 1, standings: [{ playerId: expect.any(String), name: 'Olga', score: 1900, correct: 2, rank: 1 }] });
    expect(summary.questions.map((q: any) => q.answers.map((a: any) => [a.name, a.choice, a.correct, a.points]))).toEqual(deck.map((q) => [['Olga', q.correct, true, 950]]));
    const board = await new HttpApi(server.url).request('GET', '/api/leaderboard');
    expect(board.body.players).toContainEqual(expect.objectContaining({ name: 'Olga', games: 1, wins: 1, totalScore: 1900 }));
  });

  it('resumes a room that was mid-question: the same question and clock, the acknowledged answer kept and remembered, then the game finishes', async () => {
    const host = await connect(ids.live, codes.live, 'host', 'host');
    const state = (await host.nextEvent('room.state')).data;
    // The clock the old build started: 300 s from the game's start.
    expect(state).toMatchObject({ phase: 'question', question: { index: 0, answered: 1, of: 3, closesAt: now - 2000 + 300_000 } });
    const [ann, bob, cy] = await Promise.all([ids.ann, ids.bob, ids.cy].map((id) => connect(ids.live, codes.live, 'player', id)));
    for (const p of [ann, bob, cy]) await p.nextEvent('room.state');
    // Ann's answer, sent again under its id: its original reply, not a second answer.
    expect(await ann.send('room.answer', { question: 0, choice: deck[0].correct }, 'ann-q0')).toMatchObject({ status: 200, data: { accepted: true } });
    expect((await bob.send('room.answer', { question: 0, choice: deck[0].correct === 0 ? 1 : 0 }, 'bob-q0')).status).toBe(200);
    expect((await cy.send('room.answer', { question: 0, choice: deck[0].correct }, 'cy-q0')).status).toBe(200);
    await host.nextEvent('question.open', (e) => e.data.index === 1);
    for (const [i, p] of [ann, bob, cy].entries()) expect((await p.send('room.answer', { question: 1, choice: deck[1].correct }, `q1-${i}`)).status).toBe(200);
    const finished = await host.nextEvent('game.finished');
    // Ann's first answer counted once, as the old build scored it.
    expect(finished.data.standings.find((s: any) => s.playerId === ids.ann)).toMatchObject({ correct: 2 });
    const [summary] = await finishedGames(server, ids.live);
    expect(summary.questions[0].answers.map((a: any) => a.playerId).sort()).toEqual([ids.ann, ids.bob, ids.cy].sort());
    expect(summary.questions[1].answers.map((a: any) => a.playerId).sort()).toEqual([ids.ann, ids.bob, ids.cy].sort());
    // Its first statement snapshotted it: from then on it was a journaled room, and the game's
    // finish snapshotted it again and cut its journal (the record above holds the answers).
    expect(await queryDb(server, 'SELECT count(*)::int AS n FROM room_snapshots WHERE room_id = $1', [ids.live])).toEqual([{ n: 1 }]);
    expect(await journaled(server, ids.live, 'room.answer')).toEqual([]);
    for (const c of [host, ann, bob, cy]) c.close();
  });

  it('resumes a card table between hands: its next hand is dealt, and the human plays it', async () => {
    const human = await connect(ids.table, codes.table, 'player', ids.human);
    const snapshot = (await human.nextEvent('table.snapshot')).data;
    if (snapshot.hand?.toAct !== HUMAN_SEAT) await human.nextEvent('time_bank', (e) => e.data.seat === HUMAN_SEAT);
    let reply = await human.send('table.act', { action: 'check' }, 'after-upgrade');
    if (reply.status === 409) reply = await human.send('table.act', { action: 'call' }, 'after-upgrade-call');
    expect(reply.status).toBe(200);
    expect(await journaled(server, ids.table, 'table.act')).toHaveLength(1);
    human.close();
  });

  it('brings the upgraded rooms back after kill -9 from their snapshots and journals, not from the old tables', async () => {
    await server.kill('SIGKILL');
    // The old rows can go now: nothing reads them for a room that has a snapshot.
    await db.query('DELETE FROM answers');
    await server.start();
    const host = await connect(ids.live, codes.live, 'host', 'host');
    expect((await host.nextEvent('room.state')).data).toMatchObject({ phase: 'finished', standings: expect.any(Array) });
    host.close();
  });
});

// The operator's path (docs/design.md, "Upgrading"): the old instances drained and stopped, the new
// build started as a cluster by the cluster script on the same database, which its instances
// migrate; the rooms the old build left open are served again, through the proxy.
describe('upgrading a cluster: the new build started by the cluster script on the old database', () => {
  const TOKEN_SECRET = 'upgrade-test-token-secret-0123456789abcdef';
  let cluster: ClusterScript;
  let db: Client;
  let deck: { id: number; correct: number }[];

  beforeAll(async () => {
    requireBuiltServer();
    const url = await createTestDatabase();
    ({ db, deck } = await oldDatabase(url));
    const env = { NODE_ENV: 'test', INSTANCE_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'info', TOKEN_SECRET };
    cluster = await ClusterScript.start(REPO, 2, env, () => undefined, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() }, { databaseUrl: url });
  }, 90_000);
  afterAll(async () => {
    await db?.end();
    await cluster?.stop();
  });

  it('resumes the room that was mid-question, through the proxy, and keeps the finished game', async () => {
    const issue = (seat: string, role: 'host' | 'player') => new SeatTokens(TOKEN_SECRET).issue({ roomId: ids.live, code: codes.live, role, seat });
    const host = await SeatClient.connect(cluster.proxy, issue('host', 'host'), { room: codes.live, timeoutMs: 10_000 });
    expect((await host.nextEvent('room.state')).data).toMatchObject({ phase: 'question', question: { index: 0, answered: 1, of: 3 } });
    const ann = await SeatClient.connect(cluster.proxy, issue(ids.ann, 'player'), { room: codes.live, timeoutMs: 10_000 });
    await ann.nextEvent('room.state');
    expect(await ann.send('room.answer', { question: 0, choice: deck[0].correct }, 'ann-q0')).toMatchObject({ status: 200, data: { accepted: true } });
    const [summary] = (await db.query('SELECT summary FROM finished_games WHERE room_id = $1', [ids.finished])).rows.map((r) => r.summary);
    expect(summary).toMatchObject({ code: codes.finished, standings: [{ name: 'Olga', score: 1900 }] });
    for (const c of [host, ann]) c.close();
  });
});
