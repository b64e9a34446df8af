import { RoomLifecycle } from './room-lifecycle';
import { VirtualScheduler } from './virtual-scheduler';

const T0 = 1_700_000_000_000;

function harness(idleAfterMs: number | undefined) {
  const scheduler = new VirtualScheduler();
  const clock = scheduler.clock(T0);
  const heard: string[] = [];
  const room = { idleAfterMs };
  const lifecycle = new RoomLifecycle({
    scheduler,
    clock,
    onDeadline: (at) => heard.push(`deadline ${at - T0}`),
    idleAfterMs: () => room.idleAfterMs,
    onIdle: () => heard.push(`idle at ${scheduler.now()}`),
  });
  return { scheduler, lifecycle, heard, room };
}

describe(RoomLifecycle.name, () => {
  it('refuses commands by phase: 503 shutting_down while draining, 409 room_closed once gone or over', () => {
    const { lifecycle } = harness(60_000);
    expect(lifecycle.refusal(() => false)).toBeUndefined();
    expect(lifecycle.refusal(() => true)).toMatchObject({ code: 'room_closed', status: 409 });
    void lifecycle.drain(
      () => new Promise(() => undefined),
      () => undefined,
    );
    expect(lifecycle.refusal(() => false)).toMatchObject({ code: 'shutting_down', status: 503 });
    lifecycle.end();
    expect(lifecycle.refusal(() => false)).toMatchObject({ code: 'room_closed', status: 409 });
  });

  it('drains once: the same promise however often asked, ended after the room went idle', async () => {
    const { scheduler, lifecycle } = harness(60_000);
    let ended = 0;
    let idle!: () => void;
    const first = lifecycle.drain(
      () => new Promise<void>((resolve) => (idle = resolve)),
      () => ended++,
    );
    const second = lifecycle.drain(
      () => Promise.resolve(),
      () => ended++,
    );
    expect(second).toBe(first);
    expect(lifecycle.phase).toBe('draining');
    await scheduler.flush();
    expect(ended).toBe(0);
    idle();
    await scheduler.settled(first);
    expect(ended).toBe(1);
    lifecycle.end();
    await expect(
      scheduler.settled(
        lifecycle.drain(
          () => Promise.resolve(),
          () => ended++,
        ),
      ),
    ).resolves.toBeUndefined();
    expect(ended).toBe(1);
  });

  it('passivates after the quiet time on a timer that does not keep the process alive', async () => {
    const { scheduler, lifecycle, heard } = harness(60_000);
    lifecycle.scheduleIdle();
    lifecycle.scheduleIdle();
    await scheduler.runUntilIdle();
    expect(heard).toEqual([]);
    await scheduler.advance(60_000);
    expect(heard).toEqual(['idle at 60000']);
  });

  it('starts no idle timer while the room may not leave memory, and none once it is not live', async () => {
    const h = harness(undefined);
    h.lifecycle.scheduleIdle();
    expect(h.scheduler.pendingTimers).toBe(0);
    const draining = harness(0);
    void draining.lifecycle.drain(
      () => new Promise(() => undefined),
      () => undefined,
    );
    draining.lifecycle.scheduleIdle();
    expect(draining.scheduler.pendingTimers).toBe(0);
  });

  it('cancels the idle timer, and starts it again when asked', async () => {
    const { scheduler, lifecycle, heard } = harness(1_000);
    lifecycle.scheduleIdle();
    await scheduler.advance(999);
    lifecycle.cancelIdle();
    await scheduler.advance(10_000);
    expect(heard).toEqual([]);
    lifecycle.scheduleIdle();
    await scheduler.advance(1_000);
    expect(heard).toEqual(['idle at 11999']);
  });

  it('retries a failed timed change a second later, in place of the deadline and of any retry before it', async () => {
    const { scheduler, lifecycle, heard } = harness(undefined);
    lifecycle.setDeadline(T0 + 500);
    lifecycle.retryLater(() => heard.push('first retry'));
    await scheduler.advance(400);
    lifecycle.retryLater(() => heard.push(`retry at ${scheduler.now()}`));
    await scheduler.runUntilIdle();
    expect(heard).toEqual(['retry at 1400']);
  });

  it('stops every timer when the room ends, once', async () => {
    const { scheduler, lifecycle, heard } = harness(5);
    lifecycle.setDeadline(T0 + 10);
    lifecycle.scheduleIdle();
    lifecycle.retryLater(() => heard.push('retry'));
    expect(lifecycle.end()).toBe(true);
    expect(lifecycle.end()).toBe(false);
    expect(scheduler.pendingTimers).toBe(0);
    await scheduler.advance(5_000);
    expect(heard).toEqual([]);
    expect(lifecycle.phase).toBe('disposed');
  });
});
