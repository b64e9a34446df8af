import { VirtualScheduler } from './virtual-scheduler';

describe(VirtualScheduler.name, () => {
  it('rings nothing until time moves, then each timer at its own moment, in order of moment and then of setting', async () => {
    const s = new VirtualScheduler(100);
    const rang: string[] = [];
    s.setTimer(() => rang.push(`b@${s.now()}`), 20);
    s.setTimer(() => rang.push(`a@${s.now()}`), 10);
    s.setTimer(() => rang.push(`c@${s.now()}`), 20);
    await s.flush();
    expect(rang).toEqual([]);
    await s.advance(15);
    expect(rang).toEqual(['a@110']);
    expect(s.now()).toBe(115);
    await s.advance(5);
    expect(rang).toEqual(['a@110', 'b@120', 'c@120']);
  });

  it('at one moment runs the timers due, then the turn callbacks, with promise callbacks after each, as the event loop does', async () => {
    const s = new VirtualScheduler();
    const order: string[] = [];
    s.afterTurn(() => order.push('turn now'));
    s.setTimer(() => {
      order.push('first timer');
      s.afterTurn(() => order.push('turn from the timer'));
      void Promise.resolve().then(() => order.push('promise of the first timer'));
    }, 1);
    s.setTimer(() => order.push('second timer'), 1);
    await s.flush();
    expect(order).toEqual(['turn now']);
    await s.advance(1);
    expect(order).toEqual(['turn now', 'first timer', 'promise of the first timer', 'second timer', 'turn from the timer']);
  });

  it('takes a delay below 1 ms as 1 ms, as Node does', async () => {
    const s = new VirtualScheduler();
    const rang: number[] = [];
    for (const ms of [0, -5, 0.4, Number.NaN]) s.setTimer(() => rang.push(s.now()), ms);
    await s.flush();
    expect(rang).toEqual([]);
    await s.advance(1);
    expect(rang).toEqual([1, 1, 1, 1]);
  });

  it('does not ring a cleared timer', async () => {
    const s = new VirtualScheduler();
    let rang = false;
    const t = s.setTimer(() => (rang = true), 5);
    s.clearTimer(t);
    s.clearTimer(undefined);
    await s.advance(10);
    expect(rang).toBe(false);
    expect(s.pendingTimers).toBe(0);
  });

  it('runs until only unref timers are left, ringing those it passes on the way', async () => {
    const s = new VirtualScheduler();
    const rang: string[] = [];
    s.setTimer(() => rang.push('idle early'), 10, { unref: true });
    s.setTimer(() => s.setTimer(() => rang.push('second'), 30), 20);
    s.setTimer(() => rang.push('idle late'), 1_000, { unref: true });
    await s.runUntilIdle();
    expect(rang).toEqual(['idle early', 'second']);
    expect(s.now()).toBe(50);
    expect(s.pendingTimers).toBe(1);
  });

  it('hands back what a promise settled to once everything due now has run, and fails on one still pending', async () => {
    const s = new VirtualScheduler();
    const soon = new Promise<string>((resolve) => s.afterTurn(() => resolve('done')));
    await expect(s.settled(soon)).resolves.toBe('done');
    const failing = new Promise((_, reject) => s.afterTurn(() => reject(new Error('refused'))));
    await expect(s.settled(failing)).rejects.toThrow('refused');
    const later = new Promise<void>((resolve) => s.setTimer(resolve, 5));
    await expect(s.settled(later)).rejects.toThrow('still pending');
  });

  it('gives a clock on its time, from the epoch it is asked for', async () => {
    const s = new VirtualScheduler(40);
    const clock = s.clock(1_700_000_000_000);
    expect(clock.now()).toBe(1_700_000_000_000);
    await s.advance(250);
    expect(clock.now()).toBe(1_700_000_000_250);
  });
});
