import { CommandTally } from './command-tally';

describe(CommandTally.name, () => {
  const known = new Set(['ping', 'room.answer']);

  it('keeps exact counts and means per known command, sorted by name', () => {
    const tally = new CommandTally((c) => known.has(c));
    tally.record('room.answer', 4, 1_000);
    tally.record('ping', 1, 1_000);
    tally.record('room.answer', 2, 1_500);
    expect(tally.commands()).toEqual([
      { command: 'ping', count: 1, meanMs: 1 },
      { command: 'room.answer', count: 2, meanMs: 3 },
    ]);
  });

  it('tallies every type it does not know in one `unknown` row, however many there are', () => {
    const tally = new CommandTally((c) => known.has(c));
    for (let i = 0; i < 1000; i++) tally.record(`evil.type.${i}`, 1, 1_000);
    tally.record('x'.repeat(15_000), 3, 1_000);
    tally.record('ping', 1, 1_000);
    expect(tally.commands()).toEqual([
      { command: 'ping', count: 1, meanMs: 1 },
      { command: 'unknown', count: 1001, meanMs: 1003 / 1001 },
    ]);
  });

  it('reports the mean rate of the last whole seconds', () => {
    const tally = new CommandTally(() => true, 5);
    for (let s = 0; s < 5; s++) for (let i = 0; i < 10; i++) tally.record('ping', 1, 10_000 + s * 1000);
    expect(tally.perSecondRate(15_000)).toBe(10);
  });
});
