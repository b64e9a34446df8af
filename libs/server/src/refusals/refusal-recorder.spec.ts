import { RefusalRepository, RefusalRow } from '@app/persistence';
import { refusedCommand } from '@app/room-engine';
import { RefusalRecorder } from './refusal-recorder';

/** A repository that keeps what it was given, and can be made to fail. */
function fakeRepo() {
  const written: RefusalRow[][] = [];
  let failing = false;
  const repo = {
    record: async (rows: readonly RefusalRow[]) => {
      if (failing) throw new Error('database away');
      written.push([...rows]);
    },
    prune: async () => 0,
  } as unknown as RefusalRepository;
  return { repo, written, fail: (on: boolean) => (failing = on) };
}

function counters() {
  const c = { written: 0, lost: {} as Record<string, number> };
  return {
    c,
    counters: {
      refusalsWritten: (n: number) => (c.written += n),
      refusalsLost: (reason: string, n = 1) => (c.lost[reason] = (c.lost[reason] ?? 0) + n),
    },
  };
}

const row = (i: number): RefusalRow => ({
  roomId: 'r',
  atMs: i,
  by: 'player',
  seat: 's',
  name: null,
  type: 't',
  code: 'bad_data',
  status: 400,
  message: 'm',
});

describe('RefusalRecorder', () => {
  it('holds at most its buffer cap: what does not fit is dropped and counted, never kept', async () => {
    const { repo, written } = fakeRepo();
    const { c, counters: cs } = counters();
    const recorder = new RefusalRecorder(repo, { keptDays: 7, perRoomPerMinute: 1e6, bufferCap: 5, batchRows: 2 }, cs, () => undefined);
    for (let i = 0; i < 12; i++) recorder.add(row(i));
    expect(recorder.buffered).toBe(5);
    expect(c.lost).toEqual({ buffer_full: 7 });
    await recorder.flush();
    // The rows are written in order, in batches of at most two rows.
    expect(written.map((b) => b.map((r) => r.atMs))).toEqual([[0, 1], [2, 3], [4]]);
    expect([recorder.buffered, c.written]).toEqual([0, 5]);
    await recorder.stop();
  });

  it('takes at most a room’s share a minute, by arrival; the next minute has a fresh share', async () => {
    const { repo, written } = fakeRepo();
    const { c, counters: cs } = counters();
    const recorder = new RefusalRecorder(repo, { keptDays: 7, perRoomPerMinute: 3 }, cs, () => undefined);
    const hook = recorder.hookFor('room-a', (seat) => (seat === 'p1' ? 'Ann' : undefined));
    const other = recorder.hookFor('room-b', () => undefined);
    const error = { code: 'unknown_type', status: 404, message: 'unknown command type' };
    for (let i = 0; i < 10; i++) hook(refusedCommand(1000 + i, 'player', 'p1', 'x', error));
    other(refusedCommand(1000, 'host', undefined, 'x', error));
    hook(refusedCommand(61_000, 'player', 'p1', 'x', error));
    await recorder.flush();
    const rows = written.flat();
    expect(rows.filter((r) => r.roomId === 'room-a').map((r) => r.atMs)).toEqual([1000, 1001, 1002, 61_000]);
    expect(rows.filter((r) => r.roomId === 'room-b')).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seat: 'p1', name: 'Ann', by: 'player', code: 'unknown_type' });
    expect(c.lost).toEqual({ room_cap: 7 });
    await recorder.stop();
  });

  it('drops a batch whose write fails (counted), rather than holding it while the database is away', async () => {
    const { repo, written, fail } = fakeRepo();
    const { c, counters: cs } = counters();
    const recorder = new RefusalRecorder(repo, { keptDays: 7, perRoomPerMinute: 100 }, cs, () => undefined);
    fail(true);
    for (let i = 0; i < 3; i++) recorder.add(row(i));
    await recorder.flush();
    expect([recorder.buffered, c.lost.write_failed, written.length]).toEqual([0, 3, 0]);
    fail(false);
    recorder.add(row(9));
    await recorder.flush();
    expect(written.flat().map((r) => r.atMs)).toEqual([9]);
    await recorder.stop();
  });

  it('cuts a client’s long type and message, so that one row stays small', () => {
    const r = refusedCommand(1, 'player', 's', 'x'.repeat(5000), { code: 'unknown_type', status: 404, message: 'y'.repeat(5000) });
    expect([r.type.length, r.message.length]).toEqual([64, 200]);
  });
});
