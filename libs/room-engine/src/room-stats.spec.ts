import { MAX_RECORDED_TYPE_LENGTH, RoomStats } from './room-stats';

describe(RoomStats.name, () => {
  const entry = { type: 'ping', at: 0, mailboxWaitMs: 0, ms: 1, status: 200, roundTrips: 0 };

  it('keeps the last commands, oldest first, up to its limit', () => {
    const stats = new RoomStats(0, 3);
    for (let i = 0; i < 5; i++) stats.record({ ...entry, at: i });
    expect(stats.lastCommands().map((c) => c.at)).toEqual([2, 3, 4]);
    expect(stats.commands).toBe(5);
  });

  it('cuts a long type short, so what a client wrote is not stored in full', () => {
    const stats = new RoomStats(0);
    stats.record({ ...entry, type: 'x'.repeat(15_000), status: 404 });
    stats.record({ ...entry, type: 'y'.repeat(MAX_RECORDED_TYPE_LENGTH) });
    const [long, exact] = stats.lastCommands();
    expect(long).toEqual({ ...entry, type: `${'x'.repeat(MAX_RECORDED_TYPE_LENGTH - 1)}…`, status: 404 });
    expect(exact.type).toBe('y'.repeat(MAX_RECORDED_TYPE_LENGTH));
  });
});
