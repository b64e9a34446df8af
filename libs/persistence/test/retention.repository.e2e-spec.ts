import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RoomPosition } from '@app/room-engine';
import {
  Database,
  JournalEntry,
  JournalRepository,
  openDataSource,
  PruneBatch,
  RetentionRepository,
  RoomRepository,
  StatementMeter,
} from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';

const DAY = 86_400;
const WINDOW = 30 * DAY;

// These tests run the retention's statements against real PostgreSQL. A test makes time pass for a
// row by moving its own timestamps back (closed_at, finished_at), because PostgreSQL compares
// every window with now().
describe(RetentionRepository.name, () => {
  let dataSource: DataSource;
  let db: Database;
  let journal: JournalRepository;
  let rooms: RoomRepository;
  let retention: RetentionRepository;
  let url: string;

  beforeAll(async () => {
    const meter = new StatementMeter();
    url = await createTestDatabase();
    dataSource = await openDataSource({ url, poolMax: 2, migrations: MIGRATIONS }, meter);
    db = new Database(dataSource, meter, 10_000, 2);
    journal = new JournalRepository(db);
    rooms = new RoomRepository(db);
    retention = new RetentionRepository(db);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  const at = (roomId: string, seq: number): RoomPosition => ({ roomId, seq, fence: 0 });
  const command = (n: number): JournalEntry => ({
    kind: 'command',
    atMs: n,
    actor: { role: 'player', seat: 's1' },
    commandId: `c-${n}`,
    body: { n },
  });

  /**
   * Makes a room that played: opened with a deck copy (or a reference), a game finished (snapshot
   * and result), more commands after it, and then closed `closedDaysAgo` days ago. The room stays
   * open when `closedDaysAgo` is undefined.
   */
  async function playedRoom(
    closedDaysAgo: number | undefined,
    options: { reference?: boolean } = {},
  ): Promise<{ id: string; code: string; resultId: string }> {
    const id = randomUUID();
    const code = randomBytes(3).toString('hex').toUpperCase();
    const deck = options.reference
      ? { deckRef: { id: '00000000-0000-4000-8000-000000000001', hash: 'h' } }
      : { deck: [{ text: 'q', choices: ['a', 'b'], correct: 0 }] };
    expect(
      await rooms.openRoom({ id, code, game: 'tally', seed: 1, settings: {}, snapshot: { atMs: 1, state: { opened: true } }, ...deck }),
    ).toBe('created');
    await journal.append([command(1), command(2)], at(id, 0), 5000);
    const { resultId } = await journal.append([command(3)], at(id, 1), 5000, {
      snapshot: { atMs: 3, state: { total: 6 } },
      result: { game: 'tally', gameNo: 1, summary: { total: 6 } },
    });
    await journal.append([command(4), command(5)], at(id, 2), 5000);
    if (closedDaysAgo !== undefined) {
      await journal.append([command(6)], at(id, 3), 5000, { closed: 'expired' });
      await age(id, closedDaysAgo);
    }
    return { id, code, resultId: resultId! };
  }

  /** Moves the room's close, and its game's finish, to `days` days before now. */
  async function age(roomId: string, days: number): Promise<void> {
    await dataSource.query(`UPDATE rooms SET closed_at = closed_at - make_interval(days => $2) WHERE id = $1`, [roomId, days]);
    await dataSource.query(`UPDATE finished_games SET finished_at = finished_at - make_interval(days => $2) WHERE room_id = $1`, [
      roomId,
      days,
    ]);
  }

  async function kept(roomId: string) {
    const [row] = await dataSource.query(
      `SELECT (SELECT count(*)::int FROM room_journal WHERE room_id = $1) AS journal,
              (SELECT count(*)::int FROM room_snapshots WHERE room_id = $1) AS snapshots,
              (SELECT count(*)::int FROM finished_games WHERE room_id = $1) AS games,
              (SELECT count(*)::int FROM room_heads WHERE room_id = $1) AS heads,
              (SELECT count(*)::int FROM rooms WHERE id = $1) AS rooms,
              (SELECT deck IS NOT NULL FROM rooms WHERE id = $1) AS copy,
              (SELECT pruned_at IS NOT NULL FROM rooms WHERE id = $1) AS pruned`,
      [roomId],
    );
    return row;
  }

  /** Runs batches of `limit` until one comes back short, and returns what each took and what they removed together. */
  async function drain(
    batch: (limit: number) => Promise<PruneBatch>,
    limit: number,
  ): Promise<{ taken: number[]; removed: Record<string, number> }> {
    const taken: number[] = [];
    const removed: Record<string, number> = {};
    for (;;) {
      const b = await batch(limit);
      taken.push(b.taken);
      for (const [table, n] of Object.entries(b.removed)) removed[table] = (removed[table] ?? 0) + n;
      if (b.taken < limit) return { taken, removed };
    }
  }

  // Every test starts with nothing due, so that its counts are of its own rooms only.
  beforeEach(async () => {
    await dataSource.query(`UPDATE rooms SET closed_at = now(), closed_reason = 'test' WHERE closed_at IS NULL`);
    await dataSource.query(
      `DELETE FROM room_journal; DELETE FROM room_snapshots; DELETE FROM finished_games; DELETE FROM room_heads; DELETE FROM rooms WHERE settings IS NOT NULL`,
    );
  });

  it("removes a closed room's journal, snapshot and deck copy once the window has passed, and nothing of rooms within it or open", async () => {
    const old = await playedRoom(31);
    const recent = await playedRoom(29);
    const open = await playedRoom(undefined);
    const before = { journal: 3, snapshots: 1, games: 1, heads: 1, rooms: 1, copy: true, pruned: false };
    expect(await kept(old.id)).toEqual(before);

    expect(await retention.pruneClosedJournals(WINDOW, 100)).toEqual({ taken: 3, removed: { room_journal: 3 } });
    expect(await retention.pruneClosedRooms(WINDOW, 100)).toEqual({ taken: 1, removed: { room_snapshots: 1, room_decks: 1 } });
    expect(await kept(old.id)).toEqual({ ...before, journal: 0, snapshots: 0, copy: false, pruned: true });
    expect(await kept(recent.id)).toEqual(before);
    expect(await kept(open.id)).toEqual({ ...before, journal: 2 });
    // Now nothing more is due, and a load of the pruned room's code finds the room without a snapshot.
    expect(await retention.pruneClosedRooms(WINDOW, 100)).toEqual({ taken: 0, removed: { room_snapshots: 0, room_decks: 0 } });
    expect(await rooms.loadRooms([old.code])).toEqual([
      expect.objectContaining({ roomId: old.id, snapshot: null, entries: [], deck: null, closedReason: 'expired', pruned: true }),
    ]);
    expect(await rooms.loadRooms([recent.code])).toEqual([expect.objectContaining({ roomId: recent.id, pruned: false })]);
  });

  it('counts a referenced deck as no copy to remove', async () => {
    const old = await playedRoom(31, { reference: true });
    await retention.pruneClosedJournals(WINDOW, 100);
    expect(await retention.pruneClosedRooms(WINDOW, 100)).toEqual({ taken: 1, removed: { room_snapshots: 1, room_decks: 0 } });
    expect(await kept(old.id)).toMatchObject({ snapshots: 0, pruned: true });
  });

  it('removes 35 closed rooms in batches of at most 10, the oldest first', async () => {
    const due: string[] = [];
    for (let i = 0; i < 35; i++) due.push((await playedRoom(31 + i)).id);
    // Each room has three journal rows, so 105 rows, deleted ten per statement.
    expect(await drain((n) => retention.pruneClosedJournals(WINDOW, n), 10)).toEqual({
      taken: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 5],
      removed: { room_journal: 105 },
    });
    // The first batch took the ten oldest rooms.
    const first = await retention.pruneClosedRooms(WINDOW, 10);
    expect(first.taken).toBe(10);
    const pruned = (await dataSource.query(`SELECT id FROM rooms WHERE pruned_at IS NOT NULL`)).map((r: { id: string }) => r.id);
    expect(new Set(pruned)).toEqual(new Set(due.slice(25)));
    expect(await drain((n) => retention.pruneClosedRooms(WINDOW, n), 10)).toEqual({
      taken: [10, 10, 5],
      removed: { room_snapshots: 25, room_decks: 25 },
    });
  });

  it('is safe to run from two instances at once: each row is removed once, and neither fails', async () => {
    for (let i = 0; i < 40; i++) await playedRoom(31);
    const meter = new StatementMeter();
    const other = await openDataSource({ url, poolMax: 1, migrate: false }, meter);
    const otherDb = new Database(other, meter, 10_000, 1);
    try {
      const instances = [retention, new RetentionRepository(otherDb)];
      const removed = { room_journal: 0, room_snapshots: 0, room_decks: 0 };
      // Both instances sweep the same rooms at the same time, in batches of 7, until neither finds any.
      await Promise.all(
        instances.map(async (r) => {
          for (const step of [(n: number) => r.pruneClosedJournals(WINDOW, n), (n: number) => r.pruneClosedRooms(WINDOW, n)]) {
            for (;;) {
              const b = await step(7);
              for (const [table, n] of Object.entries(b.removed)) removed[table as keyof typeof removed] += n;
              if (b.taken === 0) break;
            }
          }
        }),
      );
      expect(removed).toEqual({ room_journal: 120, room_snapshots: 40, room_decks: 40 });
      expect((await dataSource.query(`SELECT count(*)::int AS n FROM rooms WHERE settings IS NOT NULL AND pruned_at IS NULL`))[0].n).toBe(
        0,
      );
    } finally {
      await otherDb.close();
      await other.destroy();
    }
  });

  it('removes finished games past their retention, then the rows of pruned rooms none of which is left', async () => {
    const gone = await playedRoom(31);
    const kept31 = await playedRoom(31);
    const recent = await playedRoom(2);
    // kept31's game is younger than its room's close: it finished 10 days ago, in a room closed 31 days ago.
    await dataSource.query(`UPDATE finished_games SET finished_at = now() - interval '10 days' WHERE room_id = $1`, [kept31.id]);
    await drain((n) => retention.pruneClosedJournals(WINDOW, n), 100);
    await drain((n) => retention.pruneClosedRooms(WINDOW, n), 100);

    expect(await drain((n) => retention.pruneFinishedGames(WINDOW, n), 100)).toEqual({ taken: [1], removed: { finished_games: 1 } });
    expect(await drain((n) => retention.pruneRoomRows(WINDOW, n), 100)).toEqual({ taken: [1], removed: { rooms: 1, room_heads: 1 } });
    expect(await kept(gone.id)).toEqual({ journal: 0, snapshots: 0, games: 0, heads: 0, rooms: 0, copy: null, pruned: null });
    // A room that still has a finished game keeps its row (the game names it) until the game goes.
    expect(await kept(kept31.id)).toMatchObject({ games: 1, rooms: 1, pruned: true });
    expect(await kept(recent.id)).toMatchObject({ journal: 3, snapshots: 1, games: 1, rooms: 1, pruned: false });
    expect(await journal.result(gone.resultId, 30)).toBeUndefined();
    expect(await journal.result(recent.resultId, 30)).toMatchObject({ id: recent.resultId, summary: { total: 6 } });
    expect(await rooms.loadRooms([gone.code])).toEqual([]);
  });

  it('removes the row of a room from before the journal like any other: closed at the upgrade, with no settings and no finished game left', async () => {
    const old = randomUUID();
    const [deck] = await dataSource.query(`SELECT id FROM decks WHERE builtin LIMIT 1`);
    // Such a room is always closed (migration 1764892800000), so an open room without settings is refused.
    await expect(
      dataSource.query(`INSERT INTO rooms (id, code, game, deck_id) VALUES ($1, 'OLDOPN', 'tally', $2)`, [randomUUID(), deck.id]),
    ).rejects.toThrow(/rooms_settings/);
    await dataSource.query(
      `INSERT INTO rooms (id, code, game, deck_id, closed_at, closed_reason, pruned_at)
       VALUES ($1, 'OLDROW', 'tally', $2, now() - interval '400 days', 'upgrade', now() - interval '300 days')`,
      [old, deck.id],
    );
    expect(await retention.pruneRoomRows(WINDOW, 100)).toEqual({ taken: 1, removed: { rooms: 1, room_heads: 1 } });
    expect(await kept(old)).toMatchObject({ rooms: 0, heads: 0 });
  });
});
