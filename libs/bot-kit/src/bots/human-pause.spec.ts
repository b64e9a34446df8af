import { getEventListeners } from 'node:events';
import { sleep } from './human-pause';

describe('sleep', () => {
  it('resolves after its time when nothing aborts it', async () => {
    const run = new AbortController();
    let woke = false;
    const slept = sleep(5, run.signal).then(() => (woke = true));
    expect(woke).toBe(false);
    await slept;
    expect(woke).toBe(true);
  });

  it('holds one abort listener for any number of sleepers, and an abort wakes them all', async () => {
    const run = new AbortController();
    const woken: number[] = [];
    const sleeps = Array.from({ length: 1000 }, (_, i) => sleep(60_000, run.signal).then(() => woken.push(i)));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
    run.abort();
    await Promise.all(sleeps);
    expect(woken).toHaveLength(1000);
  });

  it('resolves at once on a signal that has already aborted', async () => {
    const run = new AbortController();
    run.abort();
    const started = Date.now();
    await sleep(60_000, run.signal);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});
