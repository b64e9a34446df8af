import { Client } from 'pg';
import { SeatClient, GameEvent, HttpApi } from '@app/bot-kit';
import { Database, openDataSource, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { RunningPostgres } from '../src/embedded/postgres-cluster';
import { createDatabase, OLDEST_MAJOR, serverMajor, startDebianPostgres } from '../../../test/support/debian-postgres';
import { RunningPgBouncer, startPgBouncer } from '../../../test/support/pgbouncer';
import { ServerProcess } from '../../../test/support/server-process';
import { seatRoom } from './support';

// The server where operators' databases are (README "Where it runs"): the oldest PostgreSQL major
// it supports (Debian's 15; every other test runs on the newest, the embedded one), straight and
// behind a real PgBouncer in transaction pooling. On each, a real server process plays a game,
// is killed with kill -9 mid-question, and comes back where it was; in process, the data source
// is seen to send each kind of statement its own way. One PostgreSQL and one PgBouncer for the
// whole file.

const WAIT_MS = 10_000;
const RIGHT = 1;
const WRONG = 0;

describe(`PostgreSQL ${OLDEST_MAJOR}, direct and behind PgBouncer in transaction pooling`, () => {
  let pg: RunningPostgres;
  let bouncer: RunningPgBouncer;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    pg = await startDebianPostgres();
    // A role that only the pooler's URL uses tells, in a statement, which way it came.
    const admin = new Client({ connectionString: pg.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE ROLE pooled LOGIN PASSWORD 'pooled'`);
    await admin.end();
    bouncer = await startPgBouncer(pg.port, { postgres: 'postgres', pooled: 'pooled' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.dispose()));
    await bouncer?.stop();
    await pg?.stop();
  });

  async function serverOn(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
    const server = await ServerProcess.create({ databaseUrl, env });
    servers.push(server);
    return server;
  }

  it(`plays a game on PostgreSQL ${OLDEST_MAJOR}, direct, and comes back after kill -9 mid-question`, async () => {
    const url = await createDatabase(pg, 'direct_game');
    expect(await serverMajor(url)).toBe(OLDEST_MAJOR);
    const server = await serverOn(url);
    await server.explainFailure(async () => {
      // The server migrates the empty database itself as it starts.
      await server.start();
      await playThroughKill(server);
    });
  }, 90_000);

  it('plays a game behind PgBouncer (DATABASE_URL) with sessions straight to PostgreSQL (DATABASE_DIRECT_URL), and comes back after kill -9', async () => {
    const direct = await createDatabase(pg, 'pooled_game');
    const server = await serverOn(bouncer.url('pooled_game'), { DATABASE_DIRECT_URL: direct });
    await server.explainFailure(async () => {
      await server.start();
      const before = await bouncer.transactions('pooled_game');
      await playThroughKill(server);
      // The requests' statements went through the pooler: it carried transactions for them.
      expect(await bouncer.transactions('pooled_game')).toBeGreaterThan(before);
    });
  }, 90_000);

  it("sends the pool's statements through the pooler, and a write that may need settling straight to PostgreSQL", async () => {
    const direct = await createDatabase(pg, 'routes');
    const meter = new StatementMeter();
    const dataSource = await openDataSource(
      { url: bouncer.url('routes', 'pooled'), directUrl: direct, poolMax: 2, migrations: MIGRATIONS },
      meter,
    );
    const db = new Database(dataSource, meter, 5_000, 1);
    try {
      expect(await db.run('Test.read', 'SELECT current_user AS who')).toEqual([{ who: 'pooled' }]);
      // Settling it would end its server process by pid: only a direct connection knows the real one.
      const check = { sql: 'SELECT 1', params: [] };
      expect(await db.run('Test.checkedWrite', 'SELECT current_user AS who', [], 5_000, check)).toEqual([{ who: 'postgres' }]);
    } finally {
      await db.close();
      await dataSource.destroy();
    }
  });

  it("refuses to start, saying why, when its only URL is a pooler's: what needs a session would break there", async () => {
    await createDatabase(pg, 'pooler_only');
    const server = await serverOn(bouncer.url('pooler_only'));
    const refused = await server.start().then(
      () => undefined,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/the server exited before it started \(code 1\)/);
    expect(refused).toMatch(
      /game-server failed to start: the direct database URL does not reach PostgreSQL itself: .* a pooler sits in between/,
    );
  }, 60_000);
});

/**
 * A three-question game on `server` (running): question 0 answered by both, question 1 by Ann
 * only, then kill -9; after the restart the room is on question 1 with its clock and Ann's answer,
 * Bob answers, question 2 is played, the game finishes and its results link reads.
 */
async function playThroughKill(server: ServerProcess): Promise<void> {
  const questions = Array.from({ length: 3 }, (_, i) => ({
    text: `Question ${i + 1}?`,
    choices: ['north', 'east', 'south', 'west'],
    correct: RIGHT,
  }));
  const deck = await new HttpApi(server.url).request('POST', '/api/decks', { name: 'Operator deck', questions });
  expect(deck.status).toBe(201);
  const room = await seatRoom(
    server,
    ['Ann', 'Bob'],
    { deckId: deck.body.id, questionCount: 3, secondsPerQuestion: 60, revealSeconds: 0.2 },
    { timeoutMs: WAIT_MS },
  );
  const [ann, bob] = room.players;
  expect((await room.host.send('room.start', {}, 'host-start')).status).toBe(200);
  await answerBoth([ann, bob], 0);
  await room.host.nextEvent('question.closed', (e) => e.data.index === 0);
  const open1 = await room.host.nextEvent('question.open', (e) => e.data.index === 1);
  expect(await ann.send('room.answer', { question: 1, choice: RIGHT }, 'ann-q1')).toMatchObject({ status: 200, data: { accepted: true } });

  expect(await server.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
  await Promise.all([room.host, ...room.players].map((c) => c.waitClosed()));
  await server.restart();

  const [host, annBack, bobBack] = await Promise.all(
    [room.hostToken, ...room.playerTokens].map((token) => SeatClient.connect(server.url, token, { timeoutMs: WAIT_MS })),
  );
  const [hostState, annState] = await Promise.all([
    host.nextEvent('room.state'),
    annBack.nextEvent('room.state'),
    bobBack.nextEvent('room.state'),
  ]);
  expect(hostState.data).toMatchObject({ phase: 'question', question: { index: 1, closesAt: open1.data.closesAt, answered: 1, of: 2 } });
  expect(annState.data.you.answer).toEqual({ question: 1, choice: RIGHT });
  expect(await bobBack.send('room.answer', { question: 1, choice: WRONG }, 'bob-q1')).toMatchObject({ status: 200 });
  await answerBoth([annBack, bobBack], 2);
  const finished: GameEvent = await host.nextEvent('game.finished');
  expect(finished.data.standings.map((s: { playerId: string; correct: number }) => [s.playerId, s.correct])).toEqual([
    [room.playerIds[0], 3],
    [room.playerIds[1], 0],
  ]);
  const results = await new HttpApi(server.url).request('GET', `/api/results/${finished.data.resultsId}`);
  expect(results).toMatchObject({ status: 200, body: { code: room.code, standings: finished.data.standings } });
  for (const c of [host, annBack, bobBack]) c.close();
}

/** Question `index` opens for both, Ann answers it right and Bob wrong, and both are acknowledged. */
async function answerBoth([ann, bob]: SeatClient[], index: number): Promise<void> {
  for (const c of [ann, bob]) {
    if (
      !c.events.some(
        (e) => (e.type === 'question.open' && e.data.index === index) || (e.type === 'room.state' && e.data.question?.index === index),
      )
    ) {
      await c.nextEvent('question.open', (e) => e.data.index === index);
    }
  }
  const replies = await Promise.all([
    ann.send('room.answer', { question: index, choice: RIGHT }, `ann-q${index}`),
    bob.send('room.answer', { question: index, choice: WRONG }, `bob-q${index}`),
  ]);
  expect(replies.map((r) => r.status)).toEqual([200, 200]);
}
