import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoomOutOfOrderError, RoomPosition } from '@app/room-engine';
import {
  Database,
  JournalEntry,
  JournalRepository,
  openDataSource,
  RoomRepository,
  StatementMeter,
  UnstorableJournalValueError,
} from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';

describe(JournalRepository.name, () => {
  let dataSource: DataSource;
  let meter: StatementMeter;
  let db: Database;
  let journal: JournalRepository;
  let rooms: RoomRepository;

  beforeAll(async () => {
    meter = new StatementMeter();
    dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 2, migrations: MIGRATIONS }, meter);
    db = new Database(dataSource, meter, 10_000, 2);
    journal = new JournalRepository(db);
    rooms = new RoomRepository(db);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  const codes = new Map<string, string>();
  const OPENED = { seq: -1, atMs: 1, state: { state: { opened: true }, replies: [] } };

  /** Opens a new room through the real repository, with its opening snapshot. Its head starts at position 0, fence 0. */
  async function newRoom(): Promise<string> {
    const id = randomUUID();
    const code = randomBytes(3).toString('hex').toUpperCase();
    const created = await rooms.openRoom({
      id,
      code,
      game: 'tally',
      seed: 7,
      settings: { any: 'json' },
      snapshot: { atMs: 1, state: { opened: true } },
    });
    expect(created).toBe('created');
    codes.set(id, code);
    return id;
  }

  /** What the server's load gives back of these rooms (by their codes). */
  async function load(ids: readonly string[]) {
    const loaded = await rooms.loadRooms(ids.map((id) => codes.get(id) ?? 'NOROOM'));
    return loaded.map(({ roomId, code, commitSeq, fence, snapshot, entries }) => ({ roomId, code, commitSeq, fence, snapshot, entries }));
  }

  const at = (roomId: string, seq: number, fence = 0): RoomPosition => ({ roomId, seq, fence });
  const command = (atMs: number, body: unknown, seat = 's1'): JournalEntry => ({
    kind: 'command',
    atMs,
    actor: { role: 'player', seat },
    commandId: `c-${atMs}`,
    body,
  });

  async function counted<T>(action: () => Promise<T>): Promise<{ value: T; trips: readonly string[] }> {
    const log = meter.capture();
    const value = await action();
    return { value, trips: log.stop() };
  }

  const count = async (table: string, roomId: string) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE room_id = $1`, [roomId]))[0].n);
  const head = async (roomId: string) =>
    (await dataSource.query(`SELECT commit_seq::int AS seq, lease_fence::int AS fence FROM room_heads WHERE room_id = $1`, [roomId]))[0];

  describe('append and load', () => {
    it('gives back what many rooms appended in one statement, in order, in one load', async () => {
      const [a, b, c] = [await newRoom(), await newRoom(), await newRoom()];
      const first = {
        [a]: [
          command(1000, { move: 1 }),
          { kind: 'signal', atMs: 1001, actor: { role: 'player', seat: 's2' }, commandId: null, body: { presence: 'gone' } },
        ],
        [b]: [{ kind: 'late_deadline', atMs: 2000, actor: null, commandId: null, body: { due: 1990 } }],
        [c]: [
          command(3000, { move: 'x' }),
          command(3001, { move: 'y' }, 's2'),
          { kind: 'proposal', atMs: 3002, actor: null, commandId: null, body: { name: 'tick' } },
        ],
      } as Record<string, JournalEntry[]>;

      // The three rooms' appends are sent in the same turn, so they share one statement.
      const { trips } = await counted(() => Promise.all([a, b, c].map((id) => journal.append(first[id], at(id, 0), 5000))));
      expect(trips).toEqual(['JournalRepository.append']);
      await journal.append([command(1100, { move: 2 })], at(a, 1), 5000);

      const { value: loaded, trips: loadTrips } = await counted(() => load([a, b, c]));
      expect(loadTrips).toEqual(['RoomRepository.loadRooms']);
      const byRoom = new Map(loaded.map((l) => [l.roomId, l]));
      expect(byRoom.size).toBe(3);
      expect(byRoom.get(a)).toMatchObject({ commitSeq: 2, fence: 0, snapshot: OPENED });
      expect(byRoom.get(a)!.entries).toEqual([
        { ...first[a][0], seq: 0, idx: 0 },
        { ...first[a][1], seq: 0, idx: 1 },
        { ...command(1100, { move: 2 }), seq: 1, idx: 0 },
      ]);
      expect(byRoom.get(b)).toMatchObject({ commitSeq: 1, entries: [{ ...first[b][0], seq: 0, idx: 0 }] });
      expect(byRoom.get(c)!.entries).toEqual(first[c].map((e, idx) => ({ ...e, seq: 0, idx })));
      expect(byRoom.get(c)!.code).toMatch(/^[0-9A-F]{6}$/);
    });

    it('loads a room with no journal as its position and nothing else, and an unknown room as nothing', async () => {
      const room = await newRoom();
      expect(await load([room, randomUUID()])).toEqual([
        { roomId: room, code: expect.any(String), commitSeq: 0, fence: 0, snapshot: OPENED, entries: [] },
      ]);
    });

    it('keeps JSON with unicode, nested arrays and escapes exactly', async () => {
      const room = await newRoom();
      const body = {
        text: 'héllo 🎲 日本語 «quotes» "double" \\ back\\slash \u0001 \\u0000 as text',
        nested: [[1, [2, [3, []]]], { a: [null, true, false, 1.5, -0.25, 1e21] }, []],
        '': { ключ: 'значение' },
      };
      await journal.append([command(5, body)], at(room, 0), 5000, { snapshot: { atMs: 5, state: { board: [[body.text]] } } });
      const [loaded] = await load([room]);
      expect(loaded.entries).toEqual([]);
      expect(loaded.snapshot).toEqual({ seq: 0, atMs: 5, state: { board: [[body.text]] } });
      await journal.append([command(6, body)], at(room, 1), 5000);
      const [again] = await load([room]);
      expect(again.entries).toEqual([{ ...command(6, body), seq: 1, idx: 0 }]);
    });
  });

  describe('snapshots', () => {
    it('cuts the journal a load returns at the latest snapshot', async () => {
      const room = await newRoom();
      await journal.append([command(1, { n: 1 })], at(room, 0), 5000);
      await journal.append([command(2, { n: 2 })], at(room, 1), 5000, { snapshot: { atMs: 2, state: { total: 3 } } });
      await journal.append([command(3, { n: 3 }), command(4, { n: 4 })], at(room, 2), 5000);

      const [loaded] = await load([room]);
      expect(loaded.snapshot).toEqual({ seq: 1, atMs: 2, state: { total: 3 } });
      expect(loaded.entries.map((e) => [e.seq, e.idx, e.body])).toEqual([
        [2, 0, { n: 3 }],
        [2, 1, { n: 4 }],
      ]);

      // A later snapshot replaces it (there is one per room), here with no entries of its own.
      await journal.append([], at(room, 3), 5000, { snapshot: { atMs: 9, state: { total: 10 } } });
      const [later] = await load([room]);
      expect(later).toMatchObject({ commitSeq: 4, snapshot: { seq: 3, atMs: 9, state: { total: 10 } }, entries: [] });
      expect(await count('room_snapshots', room)).toBe(1);
    });

    const journalOf = async (roomId: string) =>
      (await dataSource.query(`SELECT seq::int, idx, body FROM room_journal WHERE room_id = $1 ORDER BY seq, idx`, [roomId])) as {
        seq: number;
        idx: number;
        body: unknown;
      }[];

    it('keeps the journal after the latest snapshot only: the snapshot statement deletes what is before it and journals nothing of its own', async () => {
      const room = await newRoom();
      await journal.append([command(1, { n: 1 })], at(room, 0), 5000);
      await journal.append([command(2, { n: 2 }), command(3, { n: 3 })], at(room, 1), 5000);
      expect((await journalOf(room)).map((e) => e.body)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);

      // One statement costs one round trip, and the entries it carries are in the snapshot it writes.
      const { trips } = await counted(() =>
        journal.append([command(4, { n: 4 })], at(room, 2), 5000, { snapshot: { atMs: 4, state: { total: 10 } } }),
      );
      expect(trips).toEqual(['JournalRepository.append']);
      expect(await journalOf(room)).toEqual([]);
      await journal.append([command(5, { n: 5 })], at(room, 3), 5000);
      expect(await journalOf(room)).toEqual([{ seq: 3, idx: 0, body: { n: 5 } }]);

      // A load returns the snapshot and what came after it, exactly as before the journal was cut.
      const [loaded] = await load([room]);
      expect(loaded).toMatchObject({ commitSeq: 4, snapshot: { seq: 2, atMs: 4, state: { total: 10 } } });
      expect(loaded.entries.map((e) => [e.seq, e.idx, e.body])).toEqual([[3, 0, { n: 5 }]]);
    });

    it("cuts each room's journal at its own snapshot when many rooms' appends share one statement", async () => {
      const [snapshotted, journaled] = [await newRoom(), await newRoom()];
      for (const room of [snapshotted, journaled]) await journal.append([command(1, { n: 1 }), command(2, { n: 2 })], at(room, 0), 5000);
      const { trips } = await counted(() =>
        Promise.all([
          journal.append([command(3, { n: 3 })], at(snapshotted, 1), 5000, { snapshot: { atMs: 3, state: { total: 6 } } }),
          journal.append([command(3, { n: 3 })], at(journaled, 1), 5000),
        ]),
      );
      expect(trips).toEqual(['JournalRepository.append']);
      expect(await journalOf(snapshotted)).toEqual([]);
      expect((await journalOf(journaled)).map((e) => [e.seq, e.idx])).toEqual([
        [0, 0],
        [0, 1],
        [1, 0],
      ]);
    });

    it('cuts from the snapshot it replaces: rows older than that (journaled before the journal was cut) are left to the pruning of closed rooms', async () => {
      const room = await newRoom();
      await journal.append([command(1, { n: 1 })], at(room, 0), 5000);
      await journal.append([], at(room, 1), 5000, { snapshot: { atMs: 2, state: { total: 1 } } });
      // Add a row before that snapshot, as a build that kept the whole journal would have left it.
      await dataSource.query(
        `INSERT INTO room_journal (room_id, seq, idx, at_ms, kind, actor, command_id, body) VALUES ($1, 0, 1, 1, 'command', '{"role":"player","seat":"s1"}', 'old', '{"n":0}')`,
        [room],
      );
      await journal.append([command(3, { n: 3 })], at(room, 2), 5000);
      await journal.append([], at(room, 3), 5000, { snapshot: { atMs: 4, state: { total: 4 } } });
      expect(await journalOf(room)).toEqual([{ seq: 0, idx: 1, body: { n: 0 } }]);
      // A load does not read that row, because it is before the snapshot.
      expect((await load([room]))[0]).toMatchObject({ snapshot: { seq: 3 }, entries: [] });
    });
  });

  describe('the guard', () => {
    it('refuses an append at a stale fence and writes nothing', async () => {
      const room = await newRoom();
      await dataSource.query('UPDATE room_heads SET lease_fence = 1 WHERE room_id = $1', [room]);
      await expect(
        journal.append([command(1, { n: 1 })], at(room, 0, 0), 5000, {
          snapshot: { atMs: 1, state: {} },
          result: { game: 'g', gameNo: 1, summary: {} },
        }),
      ).rejects.toBeInstanceOf(RoomOutOfOrderError);
      expect(await head(room)).toEqual({ seq: 0, fence: 1 });
      expect([await count('room_journal', room), await count('room_snapshots', room), await count('finished_games', room)]).toEqual([
        0, 1, 0,
      ]);
    });

    it('refuses an append at the wrong position, alone, while a room sharing its statement writes nothing either', async () => {
      const [wrong, shared] = [await newRoom(), await newRoom()];
      const [refused, other] = await Promise.allSettled([
        journal.append([command(1, { n: 1 })], at(wrong, 5), 5000),
        journal.append([command(1, { n: 1 })], at(shared, 0), 5000),
      ]);
      expect(refused.status === 'rejected' && refused.reason).toBeInstanceOf(RoomOutOfOrderError);
      expect(refused.status === 'rejected' && (refused.reason as RoomOutOfOrderError).roomIds).toEqual([wrong]);
      // The shared statement did not run, so the other room is told to try again, not that it is out of order.
      expect(other.status === 'rejected' && other.reason).not.toBeInstanceOf(RoomOutOfOrderError);
      expect(other.status).toBe('rejected');
      expect([await head(wrong), await head(shared)]).toEqual([
        { seq: 0, fence: 0 },
        { seq: 0, fence: 0 },
      ]);
      expect([await count('room_journal', wrong), await count('room_journal', shared)]).toEqual([0, 0]);
    });

    it('refuses a value jsonb cannot keep before sending anything', async () => {
      const room = await newRoom();
      const { trips } = await counted(async () => {
        await expect(journal.append([command(1, { text: 'nul \u0000 inside' })], at(room, 0), 5000)).rejects.toBeInstanceOf(
          UnstorableJournalValueError,
        );
        await expect(journal.append([command(1, { text: 'lone \ud800' })], at(room, 0), 5000)).rejects.toBeInstanceOf(
          UnstorableJournalValueError,
        );
        await expect(journal.append([command(1, null)], at(room, 0), 5000)).rejects.toBeInstanceOf(UnstorableJournalValueError);
        await expect(
          journal.append([{ ...command(1, {}), kind: 'other' as JournalEntry['kind'] }], at(room, 0), 5000),
        ).rejects.toBeInstanceOf(UnstorableJournalValueError);
      });
      expect(trips).toEqual([]);
      expect(await head(room)).toEqual({ seq: 0, fence: 0 });
    });
  });

  describe('results', () => {
    it('round-trips finished games, per room and newest first', async () => {
      const [a, b] = [await newRoom(), await newRoom()];
      const summary = {
        winner: { seat: 's1', name: 'Zoë' },
        standings: [
          ['s1', 3],
          ['s2', 1],
        ],
      };
      // Two rooms finish a game in one statement, and each gets its own id back.
      const [ra, rb] = await Promise.all([
        journal.append([command(1, { last: true })], at(a, 0), 5000, { result: { game: 'g1', gameNo: 1, summary } }),
        journal.append([], at(b, 0), 5000, { result: { game: 'g2', gameNo: 1, summary: { draw: true } } }),
      ]);
      expect(ra.resultId).toEqual(expect.any(String));
      expect(rb.resultId).toEqual(expect.any(String));
      expect(ra.resultId).not.toBe(rb.resultId);
      const { resultId: a2 } = await journal.append([], at(a, 1), 5000, { result: { game: 'g1', gameNo: 2, summary: { draw: false } } });

      expect(await journal.results(a)).toEqual([
        { id: ra.resultId, roomId: a, game: 'g1', gameNo: 1, summary, finishedAt: expect.any(Number) },
        { id: a2, roomId: a, game: 'g1', gameNo: 2, summary: { draw: false }, finishedAt: expect.any(Number) },
      ]);
      const latest = await journal.latestResults(3);
      expect(latest[0].id).toBe(a2);
      expect(new Set(latest.slice(1).map((r) => r.id))).toEqual(new Set([ra.resultId, rb.resultId]));
      expect(await journal.results(randomUUID())).toEqual([]);
    });

    it('refuses a second result for the same game of a room, and the statement writes nothing', async () => {
      const room = await newRoom();
      await journal.append([], at(room, 0), 5000, { result: { game: 'g', gameNo: 1, summary: {} } });
      await expect(journal.append([command(1, {})], at(room, 1), 5000, { result: { game: 'g', gameNo: 1, summary: {} } })).rejects.toThrow(
        /finished_games_room_game_no/,
      );
      expect(await head(room)).toEqual({ seq: 1, fence: 0 });
      expect([await count('room_journal', room), await count('finished_games', room)]).toEqual([0, 1]);
    });

    it('refuses a limit outside its bounds', async () => {
      await expect(journal.latestResults(0)).rejects.toBeInstanceOf(RangeError);
      await expect(journal.latestResults(10_000)).rejects.toBeInstanceOf(RangeError);
    });
  });
});
