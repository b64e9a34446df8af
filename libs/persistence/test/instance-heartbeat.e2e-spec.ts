import { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  Database,
  InstanceBeat,
  InstanceRepository,
  LEADERBOARD_GAMES,
  LeaderboardRepository,
  openDataSource,
  RoomRepository,
  StatementMeter,
} from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';

/**
 * These tests run the heartbeat against real PostgreSQL (issue 31). A beat writes the instance's
 * row and names no room, so what it reads does not grow with the rooms the instance holds (counted
 * by pg_stat_statements, which test/global-setup.ts preloads). The leases that moved away are found
 * through indexes, including after a beat whose answer was lost. The beat runs on connections that
 * requests cannot hold up. The leaderboard reads a bounded page of finished games.
 */
const beatOf = (name: string, rooms = 0): InstanceBeat => ({
  name,
  url: `http://${name}`,
  pid: 1,
  startedAt: Date.now(),
  rooms,
  health: 'ok',
});

/** A migrated database of its own, with the repositories over it. */
async function open() {
  const meter = new StatementMeter();
  const url = await createTestDatabase();
  // PostgreSQL's own limit is the test's hard timeout rather than the server's 900 ms, because reads here wait on purpose.
  const dataSource = await openDataSource({ url, poolMax: 2, migrations: MIGRATIONS, statementTimeoutMs: 30_000 }, meter);
  const db = new Database(dataSource, meter, 30_000, 1);
  return {
    url,
    dataSource,
    meter,
    db,
    instances: new InstanceRepository(db),
    rooms: new RoomRepository(db),
    close: async () => {
      await db.close();
      await dataSource.destroy();
    },
  };
}
type Opened = Awaited<ReturnType<typeof open>>;

/** Opens a database before the suite's tests and closes it after them. Call the getter inside a test. */
function databaseForSuite(): () => Opened {
  let database: Opened | undefined;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => database!;
}

/**
 * Opens `count` rooms with codes from `first`, leased to `owner` (or free when `owner` is null),
 * and returns their ids in code order.
 */
async function seedRooms(dataSource: DataSource, first: number, count: number, owner: string | null): Promise<string[]> {
  const rows: { id: string }[] = await dataSource.query(
    `WITH made AS (
       INSERT INTO rooms (id, code, game, seed, settings)
       SELECT gen_random_uuid(), upper(lpad(to_hex(i), 6, '0')), 'quiz', i, '{}' FROM generate_series($1::int, $1::int + $2::int - 1) AS i
       RETURNING id, code
     )
     SELECT id FROM made ORDER BY code`,
    [first, count],
  );
  const ids = rows.map((r) => r.id);
  if (owner !== null)
    await dataSource.query(`UPDATE room_heads SET lease_owner = $1, lease_fence = 1 WHERE room_id = ANY($2::uuid[])`, [owner, ids]);
  return ids;
}

const head = async (dataSource: DataSource, id: string) =>
  (
    await dataSource.query(
      `SELECT lease_owner AS owner, lease_fence::int AS fence, wanted_by AS "wantedBy" FROM room_heads WHERE room_id = $1`,
      [id],
    )
  )[0];

describe(InstanceRepository.name, () => {
  describe('what a beat reads', () => {
    /**
     * Measures the pages (shared buffers hit or read) per beat of `me` holding `leased` rooms, over
     * ten beats after eight to warm up, in a database of its own. Beside those rooms there is the
     * same setup every time: rooms of another instance, some asked for by an instance that is gone,
     * and leases that moved away from another instance, so that every index the beat reads holds
     * entries.
     */
    async function pagesPerBeat(leased: number): Promise<{ pages: number; calls: number }> {
      const { dataSource, instances, close } = await open();
      try {
        await dataSource.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
        await seedRooms(dataSource, 1, leased, 'me');
        const others = await seedRooms(dataSource, 0x100000, 500, 'other');
        await dataSource.query(`UPDATE room_heads SET wanted_by = 'gone' WHERE room_id = ANY($1::uuid[])`, [others.slice(0, 50)]);
        await dataSource.query(`UPDATE room_heads SET lease_owner = 'third' WHERE room_id = ANY($1::uuid[])`, [others.slice(50, 150)]);
        await dataSource.query('VACUUM ANALYZE');
        let at: number | undefined;
        for (let i = 0; i < 8; i++) at = (await instances.beat(beatOf('me', leased), at)).at;
        await dataSource.query('SELECT pg_stat_statements_reset()');
        for (let i = 0; i < 10; i++) {
          const answer = await instances.beat(beatOf('me', leased), at);
          expect(answer.lost).toEqual([]);
          at = answer.at;
        }
        const [row] = await dataSource.query(
          `SELECT sum(calls)::int AS calls, sum(shared_blks_hit + shared_blks_read)::int AS pages FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE '%INSERT INTO instances%'`,
        );
        return { calls: row.calls, pages: row.pages / row.calls };
      } finally {
        await close();
      }
    }

    it('reads the same pages at 100 and at 2,000 rooms leased here (pg_stat_statements)', async () => {
      const few = await pagesPerBeat(100);
      const many = await pagesPerBeat(2000);
      expect(few.calls).toBe(10);
      expect(many.calls).toBe(10);
      // Sending every room's id and fence used to read some 80 pages here at 2,000 rooms (about 3 per room in a larger table).
      expect(many.pages).toBe(few.pages);
    });
  });

  describe('leases that moved away', () => {
    const opened = databaseForSuite();

    it('finds a room another instance took since the last beat heard, however long ago that beat was', async () => {
      const first = await opened().instances.beat(beatOf('a'));
      const [room, kept] = await seedRooms(opened().dataSource, 0x200000, 2, 'a');
      // This is what another instance's load leaves once a's lease ran out (or what an operator's UPDATE leaves): the fence moves on.
      await opened().dataSource.query(`UPDATE room_heads SET lease_owner = 'b', lease_fence = lease_fence + 1 WHERE room_id = $1`, [room]);
      const heard = await opened().instances.beat(beatOf('a', 2), first.at);
      expect(heard.lost).toEqual([{ id: room, fence: 2 }]);
      expect(await head(opened().dataSource, kept)).toMatchObject({ owner: 'a', fence: 1 });
      // Make the move ten minutes old. A beat whose last heard beat came after the move reads past it...
      await opened().dataSource.query(`UPDATE room_heads SET moved_at = moved_at - interval '10 minutes' WHERE room_id = $1`, [room]);
      expect((await opened().instances.beat(beatOf('a', 1), heard.at)).lost).toEqual([]);
      // ...and a beat whose last heard beat came before it (its answers lost, or the process frozen) still reads it.
      expect((await opened().instances.beat(beatOf('a', 1), first.at - 11 * 60_000)).lost).toEqual([{ id: room, fence: 2 }]);
    });

    it('does not count a room lost that this instance took back since, nor a move between other instances', async () => {
      const first = await opened().instances.beat(beatOf('c'));
      const [room] = await seedRooms(opened().dataSource, 0x300000, 1, 'c');
      const [elsewhere] = await seedRooms(opened().dataSource, 0x300100, 1, 'x');
      // The lease is released (a drain), then c loads the room again, so the lease is c's, with the next fence.
      await opened().dataSource.query(`UPDATE room_heads SET lease_owner = NULL WHERE room_id = $1`, [room]);
      const [{ code }] = await opened().dataSource.query(`SELECT trim(code) AS code FROM rooms WHERE id = $1`, [room]);
      const [loaded] = await opened().rooms.loadRooms([code], 10_000, { owner: 'c', ms: 6000 });
      expect(loaded).toMatchObject({ roomId: room, fence: 2, heldBy: null });
      await opened().dataSource.query(`UPDATE room_heads SET lease_owner = 'y', lease_fence = lease_fence + 1 WHERE room_id = $1`, [
        elsewhere,
      ]);
      expect((await opened().instances.beat(beatOf('c', 1), first.at)).lost).toEqual([]);
      expect((await opened().instances.beat(beatOf('x'), first.at)).lost).toEqual([{ id: elsewhere, fence: 2 }]);
    });

    it('hands over a room a live instance asked for, and forgets an ask from an instance that is gone', async () => {
      await opened().instances.beat(beatOf('asker'));
      const first = await opened().instances.beat(beatOf('d'));
      const [asked, orphan, quiet] = await seedRooms(opened().dataSource, 0x400000, 3, 'd');
      await opened().dataSource.query(`UPDATE room_heads SET wanted_by = 'asker' WHERE room_id = $1`, [asked]);
      await opened().dataSource.query(`UPDATE room_heads SET wanted_by = 'nobody-now' WHERE room_id = $1`, [orphan]);
      const answer = await opened().instances.beat(beatOf('d', 3), first.at);
      expect(answer.lost).toEqual([{ id: asked, fence: 1 }]);
      expect(await head(opened().dataSource, asked)).toEqual({ owner: null, fence: 1, wantedBy: null });
      expect(await head(opened().dataSource, orphan)).toEqual({ owner: 'd', fence: 1, wantedBy: null });
      expect(await head(opened().dataSource, quiet)).toEqual({ owner: 'd', fence: 1, wantedBy: null });
      // Once handed over, the room is read again as moved away (in case that answer was lost), and only that room.
      expect((await opened().instances.beat(beatOf('d', 2), first.at)).lost).toEqual([{ id: asked, fence: 1 }]);
    });
  });

  describe('its connections', () => {
    const opened = databaseForSuite();

    it('beats in one statement while every connection of the shared pool is held by slow reads', async () => {
      // A connection of the test's own holds a lock...
      const blocker = new Client({ connectionString: opened().url });
      await blocker.connect();
      await blocker.query('SELECT pg_advisory_lock(31)');
      // Two reads take both of the pool's connections and wait for the lock, so the pool has none left.
      let readsDone = 0;
      const reads = [1, 2].map(() =>
        opened()
          .db.run('Test.slowRead', 'SELECT pg_advisory_lock_shared(31)')
          .then(() => readsDone++),
      );
      await waitUntil(
        async () =>
          (await blocker.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0].n === 2,
      );
      expect(opened().db.poolStats()).toMatchObject({ total: 2, idle: 0 });
      const log = opened().meter.capture();
      const answer = await opened().instances.beat(beatOf('e'));
      expect(log.stop()).toEqual(['InstanceRepository.beat']);
      expect(answer.rows.map((r) => r.name)).toContain('e');
      expect(readsDone).toBe(0);
      await blocker.query('SELECT pg_advisory_unlock(31)');
      await blocker.end();
      await Promise.all(reads);
      expect(readsDone).toBe(2);
    });
  });
});

describe(LeaderboardRepository.name, () => {
  const opened = databaseForSuite();

  /**
   * Writes `count` finished games of `game`, one room each, in which `player` wins with `score`.
   * The newest finished `ageSeconds` ago, and the others one every `everySeconds` before it.
   */
  async function finish(
    game: string,
    count: number,
    player: string,
    score: number,
    ageSeconds: number,
    everySeconds: number,
    from: number,
  ): Promise<void> {
    const rooms = await seedRooms(opened().dataSource, from, count, null);
    await opened().dataSource.query(
      `INSERT INTO finished_games (room_id, game, game_no, finished_at, summary)
       SELECT r.id, $1, 1, now() - make_interval(secs => $5::float8 + $6::float8 * (r.n - 1)),
              jsonb_build_object('standings', jsonb_build_array(jsonb_build_object('playerId', $2::text, 'name', $2::text, 'score', $3::int, 'rank', 1)))
       FROM unnest($4::uuid[]) WITH ORDINALITY AS r(id, n)`,
      [game, player, score, rooms, ageSeconds, everySeconds],
    );
  }

  it('reads the newest finished games of one game through its index, a bounded page whatever the number finished', async () => {
    // There are more games of one kind than the page holds, and more of another kind in between; neither is read beyond the page.
    await finish('quiz', LEADERBOARD_GAMES, 'new', 2, 0, 4, 0x500000);
    await finish('dice', 3 * LEADERBOARD_GAMES, 'cardsharp', 9, 1, 4 / 3, 0x600000);
    await finish('quiz', LEADERBOARD_GAMES + 500, 'old', 1, 5 * LEADERBOARD_GAMES, 1, 0x700000);
    await opened().dataSource.query('VACUUM ANALYZE finished_games');
    const board = await new LeaderboardRepository(opened().db).topPlayers('quiz', 10);
    expect(board).toEqual([
      { playerId: 'new', name: 'new', games: LEADERBOARD_GAMES, wins: LEADERBOARD_GAMES, totalScore: 2 * LEADERBOARD_GAMES, bestScore: 2 },
    ]);
    const [{ 'QUERY PLAN': plan }] = await opened().dataSource.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT summary FROM finished_games WHERE game = $1 ORDER BY finished_at DESC LIMIT ${LEADERBOARD_GAMES}`,
      ['quiz'],
    );
    const scans = nodes(plan[0].Plan).filter((n) => n['Relation Name'] === 'finished_games');
    expect(scans).toEqual([
      expect.objectContaining({ 'Node Type': 'Index Scan', 'Index Name': 'finished_games_by_game', 'Actual Rows': LEADERBOARD_GAMES }),
    ]);
  });
});

type PlanNode = { Plans?: PlanNode[] } & Record<string, unknown>;
function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Waits, with a hard limit, for a condition to hold (checked each 10 ms). */
async function waitUntil(condition: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
