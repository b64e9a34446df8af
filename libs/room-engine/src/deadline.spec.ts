import { Deadline } from './deadline';
import { VirtualScheduler } from './virtual-scheduler';

describe(Deadline.name, () => {
  it('rings once its millisecond has passed, with the moment it was due', async () => {
    const s = new VirtualScheduler();
    const clock = s.clock(1_000);
    const fired: number[] = [];
    const deadline = new Deadline(
      s,
      () => clock.now(),
      (at) => fired.push(at),
    );
    deadline.set(1_020);
    await s.advance(20);
    // A command stamped with that very millisecond still goes ahead of the deadline.
    expect(fired).toEqual([]);
    await s.advance(1);
    expect(fired).toEqual([1_020]);
  });

  it('rings at once for a moment already past, and not again when set again to it', async () => {
    const s = new VirtualScheduler();
    const fired: number[] = [];
    const deadline = new Deadline(
      s,
      () => 5_000,
      (at) => fired.push(at),
    );
    deadline.set(4_000);
    deadline.set(4_000);
    await s.advance(1);
    expect(fired).toEqual([4_000]);
    await s.runUntilIdle();
    expect(fired).toEqual([4_000]);
  });

  it('replaces the moment when set to another, and rings for none once cleared', async () => {
    const s = new VirtualScheduler();
    const clock = s.clock(1_000);
    const fired: number[] = [];
    const deadline = new Deadline(
      s,
      () => clock.now(),
      (at) => fired.push(at),
    );
    deadline.set(1_050);
    deadline.set(1_010);
    await s.advance(11);
    expect(fired).toEqual([1_010]);
    deadline.set(1_100);
    deadline.clear();
    await s.runUntilIdle();
    expect(fired).toEqual([1_010]);
    expect(s.pendingTimers).toBe(0);
  });
});
