import { TurnBatcher } from './turn-batcher';

describe(TurnBatcher.name, () => {
  it('flushes what is submitted in one turn together, in order, and settles every submitter', async () => {
    const flushes: number[][] = [];
    const batcher = new TurnBatcher<number>(async (items) => void flushes.push(items));
    await Promise.all([batcher.submit([1, 2]), batcher.submit([3]), batcher.submit([])]);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it('starts a new flush for the next turn without waiting for the one in flight', async () => {
    const flushes: number[][] = [];
    let finishFirst!: () => void;
    const batcher = new TurnBatcher<number>((items) => {
      flushes.push(items);
      return flushes.length === 1 ? new Promise<void>((r) => (finishFirst = r)) : Promise.resolve();
    });
    const first = batcher.submit([1]);
    await new Promise((r) => setImmediate(r));
    await batcher.submit([2]);
    expect(flushes).toEqual([[1], [2]]);
    finishFirst();
    await first;
  });

  it('rejects every submitter of a flush that failed', async () => {
    const batcher = new TurnBatcher<number>(async () => {
      throw new Error('database unavailable');
    });
    const results = await Promise.allSettled([batcher.submit([1]), batcher.submit([2])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });

  it('gives the shared flush the time its most hurried submitter has left', async () => {
    const given: number[] = [];
    const batcher = new TurnBatcher<number>(async (_items, timeoutMs) => void given.push(timeoutMs));
    await Promise.all([batcher.submit([1], 60_000), batcher.submit([2], 30_000), batcher.submit([3])]);
    expect(given).toHaveLength(1);
    expect(given[0]).toBeLessThanOrEqual(30_000);
    expect(given[0]).toBeGreaterThan(0);
  });
});
