import { Database, GameRepository, AnswerRepository, PlayerRepository, RematchRepository, RoomRepository, openDataSource, StatementMeter, TriviaStore } from '@app/persistence';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { BUILTIN_DECK_ID, MIGRATIONS } from '../../../../migrations';
import { createTestDatabase } from '../../../../test/support/database';
import { TriviaRecord, TriviaResult, Write } from '../src';
import { LiveRoom, scenarioArb } from './trivia.history';

// The model of the database that the recovery properties stand on, checked against the real
// thing: a random history's committed writes go through TriviaStore into PostgreSQL, and
// RoomRepository.loadRooms must read back what the model says, id for id.

describe('TriviaDatabase (the model) against PostgreSQL', () => {
  let dataSource: DataSource;
  let repos: { rooms: RoomRepository; players: PlayerRepository; games: GameRepository; answers: AnswerRepository; rematches: RematchRepository };
  let store: TriviaStore;
  let db: Database;

  beforeAll(async () => {
    dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 2, migrations: MIGRATIONS }, new StatementMeter());
    db = new Database(dataSource, new StatementMeter(), 5000);
    repos = { rooms: new RoomRepository(db), players: new PlayerRepository(db), games: new GameRepository(db), answers: new AnswerRepository(db), rematches: new RematchRepository(db) };
    store = new TriviaStore(repos);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  it('loadRooms reads back what the model holds after the same writes', async () => {
    let rooms = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const live = new LiveRoom(scenario).playSteps(scenario.steps.length);
        const code = `M${String(rooms++).padStart(5, '0')}`;
        // The model's ids are words; PostgreSQL's are uuids: one map each way.
        const ids = new Map<string, string>([['room-1', randomUUID()], ['deck-1', BUILTIN_DECK_ID], ['ABCDEF', code]]);
        const toDb = (w: Write): Write => JSON.parse(JSON.stringify(w), (_k, v) => (typeof v === 'string' ? mapId(ids, v) : v));
        const s = scenario.settings;
        await repos.rooms.createRoom({
          id: ids.get('room-1')!, code, hostName: 'Quizmaster', deckId: BUILTIN_DECK_ID,
          questionCount: s.questionCount, secondsPerQuestion: s.secondsPerQuestion, revealSeconds: s.revealSeconds, maxPlayers: s.maxPlayers, minPlayers: s.minPlayers,
        });
        let seq = 0;
        for (const { write } of live.committed) {
          const [result] = (await store.commit([toDb(write)], { roomId: ids.get('room-1')!, seq: seq++, fence: 0 }, 5000)) as TriviaResult[];
          // The game's id is PostgreSQL's: later writes name it by the model's.
          if (write.kind === 'startGame' && result.kind === 'startGame' && result.started) ids.set(`game-${write.gameNo}`, result.started.gameId);
        }
        const [stored] = await repos.rooms.loadRooms([code]);
        const back = new Map([...ids].map(([model, db]) => [db, model]));
        const real: TriviaRecord = JSON.parse(JSON.stringify(stored.record), (_k, v) => (typeof v === 'string' ? (back.get(v) ?? v) : v));
        expect(comparable(real)).toEqual(comparable(live.db.load()));
      }),
      { numRuns: 25 },
    );
  });
});

/** A model id (room-1, p3, game-2) as PostgreSQL knows it; a player's uuid is made on first sight. */
function mapId(ids: Map<string, string>, v: string): string {
  if (!ids.has(v) && /^p\d+$/.test(v)) ids.set(v, randomUUID());
  return ids.get(v) ?? v;
}

/**
 * What the model must get exactly. Left out: what now() stamps (last_game_at, and the moment of a
 * rematch's release, which has no left_at_ms), and which questions were drawn (random() in
 * PostgreSQL, the history's own draw in the model): their number is kept. Rows read through
 * json_agg without ORDER BY are compared in a fixed order.
 */
function comparable(r: TriviaRecord): unknown {
  const byKey = <T>(rows: readonly T[]) => [...rows].map((x) => JSON.stringify(x)).sort();
  return {
    ...r,
    lastGameAt: undefined,
    playedQuestionIds: r.playedQuestionIds.length,
    players: r.players.map((p) => (p.left?.reason === 'released' ? { ...p, left: { ...p.left, at: undefined } } : p)),
    lastGame: r.lastGame && {
      ...r.lastGame,
      questions: r.lastGame.questions.length,
      answers: byKey(r.lastGame.answers),
      closes: byKey(r.lastGame.closes),
      votes: byKey(r.lastGame.votes),
    },
  };
}
