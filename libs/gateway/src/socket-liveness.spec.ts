import { SocketLiveness, SweepClock, sweepEveryMs } from './socket-liveness';

const options = { pingIdleMs: 20_000, pongTimeoutMs: 30_000 };

describe(SocketLiveness.name, () => {
  it('asks for a ping only after the idle time without a word, and for nothing before', () => {
    const l = new SocketLiveness(0);
    expect(l.check(19_999, options, 0)).toBeUndefined();
    l.heard(10_000);
    expect(l.check(29_999, options, 0)).toBeUndefined();
    expect(l.check(30_000, options, 0)).toBe('ping');
  });

  it('calls a socket silent once its ping went unanswered for the window, and not once it answered', () => {
    const silent = new SocketLiveness(0);
    silent.pinged(20_000);
    expect(silent.check(49_999, options, 0)).toBeUndefined();
    expect(silent.check(50_000, options, 0)).toBe('silent');

    const answered = new SocketLiveness(0);
    answered.pinged(20_000);
    answered.heard(20_050);
    // The ping was answered, so the socket is never silent for it, and the idle time starts again from the pong.
    expect(answered.check(40_049, options, 0)).toBeUndefined();
    expect(answered.check(50_000, options, 0)).toBe('ping');
  });

  it('does not count the time the process itself stood still against a ping', () => {
    const l = new SocketLiveness(0);
    l.pinged(20_000);
    // The process stood still for 25 s of the 31 s since the ping, so only 6 s of the window have run.
    expect(l.check(51_000, options, 25_000)).toBeUndefined();
    expect(l.check(74_999, options, 0)).toBeUndefined();
    expect(l.check(75_000, options, 0)).toBe('silent');
  });
});

describe(SweepClock.name, () => {
  it('reports nothing for sweeps on time or a little late, and the stall beyond two intervals', () => {
    const clock = new SweepClock(2000, 0);
    expect(clock.stalledSince(2000)).toBe(0);
    expect(clock.stalledSince(5900)).toBe(0);
    expect(clock.stalledSince(15_900)).toBe(6000);
    expect(clock.stalledSince(17_900)).toBe(0);
  });

  it('sweeps ten times per shorter setting, at most every 10 ms', () => {
    expect(sweepEveryMs(options)).toBe(2000);
    expect(sweepEveryMs({ pingIdleMs: 300, pongTimeoutMs: 500 })).toBe(30);
    expect(sweepEveryMs({ pingIdleMs: 100, pongTimeoutMs: 100 })).toBe(10);
  });
});
