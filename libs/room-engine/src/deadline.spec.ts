import { Deadline } from './deadline';

describe(Deadline.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('rings once its millisecond has passed, with the moment it was due', () => {
    const now = 1_000;
    const fired: number[] = [];
    const deadline = new Deadline(() => now, (at) => fired.push(at));
    deadline.set(now + 20);
    jest.advanceTimersByTime(20);
    // A command stamped with that very millisecond is still ahead of it.
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([now + 20]);
  });

  it('rings at once for a moment already past, and not again when set again to it', () => {
    const fired: number[] = [];
    const deadline = new Deadline(() => 5_000, (at) => fired.push(at));
    deadline.set(4_000);
    deadline.set(4_000);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([4_000]);
  });
});
