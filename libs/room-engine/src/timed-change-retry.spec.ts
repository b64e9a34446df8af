import { actorDeps } from '../test/actor-deps';
import { tally, TallyState } from '../test/tally.game';
import { RoomActor } from './room-actor';
import { VirtualScheduler } from './virtual-scheduler';

// A timed change is a deadline whose outcome must be recorded (here, a boundary). When its commit
// fails for a reason other than the database being away (that case holds the room's clocks; see
// clock-hold.spec.ts), the room tries it again once a second, on virtual time. Once the store
// answers, the room takes the change at the moment it was due.

const T0 = 1_700_000_000_000;

describe('a timed change whose commit fails', () => {
  it('is tried again once a second, not as fast as its deadline rings again', async () => {
    const scheduler = new VirtualScheduler();
    const clock = scheduler.clock(T0);
    const bellAt = T0 + 10;
    // The toy game's bell, made a boundary (so it is snapshotted) when it rings.
    const ringingWrites: typeof tally = {
      ...tally,
      onSignal: (s, signal, ctx) => {
        const o = tally.onSignal(s, signal, ctx);
        return o.state === s ? o : { ...o, boundary: true };
      },
    };
    let failing = true;
    const tries: number[] = [];
    const state: TallyState = { code: 'ABCDEF', seats: ['p1'], total: 0, closed: false, bellAt };
    const store = {
      append: async () => {
        tries.push(scheduler.now());
        if (failing) throw new Error('the store failed unexpectedly');
      },
    };
    const r = RoomActor.restore(
      { code: 'ABCDEF', roomId: 'room-1', openedAt: T0 },
      ringingWrites,
      { state, journal: [], replies: [] },
      actorDeps(store, { clock, scheduler }),
    );
    await scheduler.advance(11);
    expect(tries).toHaveLength(1);
    await scheduler.advance(998);
    expect(tries).toHaveLength(1);
    await scheduler.advance(2);
    expect(tries).toHaveLength(2);
    expect(r.snapshot.rungAt).toBeUndefined();
    // The store answers again. The next attempt commits, and the bell rings at the moment it was due.
    failing = false;
    await scheduler.advance(1000);
    expect(tries).toHaveLength(3);
    expect(r.snapshot.rungAt).toBe(bellAt);
    await scheduler.advance(10_000);
    expect(tries).toHaveLength(3);
    r.dispose();
  });
});
