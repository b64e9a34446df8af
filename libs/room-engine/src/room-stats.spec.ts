import fc from 'fast-check';
import { CommandRecord, MAX_RECORDED_TYPE_LENGTH, RoomStats } from './room-stats';

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
  it('has no commands to show before the first', () => {
    const stats = new RoomStats(0);
    expect(stats.lastCommands()).toEqual([]);
    expect(stats.lastCommandMs).toBeNull();
  });

  it('keeps exactly the last ones, every field, in order after writing round', () => {
    const stats = new RoomStats(0, 3);
    const records = Array.from({ length: 8 }, (_, i) => ({
      type: i % 2 ? 'room.answer' : 'ping',
      at: 1_700_000_000_000.5 + i,
      mailboxWaitMs: i / 3,
      ms: 0.1 * i,
      status: [200, 409, 503][i % 3],
      roundTrips: i,
    }));
    for (const r of records) stats.record(r);
    expect(stats.lastCommands()).toStrictEqual(records.slice(-3));
    expect(stats.commands).toBe(8);
    expect(stats.lastCommandMs).toBe(records[7].ms);
  });

  it('counts every command but keeps none when told to keep none', () => {
    const stats = new RoomStats(0, 0);
    stats.record(entry);
    expect(stats.lastCommands()).toEqual([]);
    expect(stats.commands).toBe(1);
  });

  it('cuts types alike to the same text, and keeps types past the shared ones as they came', () => {
    const stats = new RoomStats(0, 1000);
    const types = Array.from({ length: 1000 }, (_, i) => `t.${i}`);
    for (const type of types) stats.record({ ...entry, type });
    stats.record({ ...entry, type: `${'z'.repeat(70)}a` });
    stats.record({ ...entry, type: `${'z'.repeat(70)}b` });
    const kept = stats.lastCommands().map((c) => c.type);
    expect(kept.slice(0, -2)).toEqual(types.slice(2));
    expect(kept.slice(-2)).toEqual([`${'z'.repeat(MAX_RECORDED_TYPE_LENGTH - 1)}…`, `${'z'.repeat(MAX_RECORDED_TYPE_LENGTH - 1)}…`]);
  });

  it('shows what a plain list of the last records shows, for any records', () => {
    const record = fc.record(
      {
        type: fc.oneof(fc.constantFrom('ping', 'room.answer', 'unknown'), fc.string({ maxLength: 80 })),
        at: fc.double(),
        mailboxWaitMs: fc.double(),
        ms: fc.double(),
        status: fc.integer({ min: 100, max: 599 }),
        roundTrips: fc.integer({ min: 0, max: 65_535 }),
      },
      { noNullPrototype: true },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(record, { maxLength: 40, size: 'max' }), (keep, records) => {
        const stats = new RoomStats(0, keep);
        const plain: CommandRecord[] = [];
        for (const r of records) {
          stats.record(r);
          const type = r.type.length > MAX_RECORDED_TYPE_LENGTH ? `${r.type.slice(0, MAX_RECORDED_TYPE_LENGTH - 1)}…` : r.type;
          plain.push({ ...r, type });
          if (plain.length > keep) plain.shift();
          expect(stats.lastCommands()).toStrictEqual(plain);
        }
        expect(stats.commands).toBe(records.length);
        expect(stats.lastCommandMs).toBe(records.length ? records[records.length - 1].ms : null);
      }),
      { numRuns: 300 },
    );
  });
});
