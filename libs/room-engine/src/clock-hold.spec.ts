import { ReplyFrame, Role } from '@app/protocol';
import { actorDeps } from '../test/actor-deps';
import { tally, TallyCommand, TallyState } from '../test/tally.game';
import { Viewer } from './audience';
import { Clock } from './clock';
import { TRY_BUDGET_MS } from './clock-hold';
import { GameRules, unchanged } from './game-rules';
import { RoomActor } from './room-actor';
import { JournalInput, JournalStep, RoomStore, StoreUnavailableError } from './room-store';
import { RuleDriver } from './rule-driver';
import { VirtualScheduler } from './virtual-scheduler';

// These tests check what a room's clocks do while its writes fail (clock-hold.ts). They run on
// virtual time with a store that fails while the test says so. No deadline rings, the room tries
// a write once a second, and the write that succeeds records the hold and moves every clock on by
// the time the hold lasted. Replaying what the store committed gives the live room.

const T0 = 1_700_000_000_000;
const SEED = 7;

/**
 * The toy game, whose bell moves when the clocks are held. It also records who is here, which is
 * a presence change the room takes without a write.
 */
type BellState = TallyState & { readonly here?: readonly string[] };
const bell = {
  ...tally,
  shiftClocks: (s: BellState, ms: number) => (s.bellAt === undefined ? s : { ...s, bellAt: s.bellAt + ms }),
  onSignal: (s: BellState, signal, ctx) => {
    if (signal.kind !== 'presence') return tally.onSignal(s, signal, ctx);
    const here = (s.here ?? []).filter((seat) => seat !== signal.seat);
    return { ...unchanged(s), state: { ...s, here: signal.connected ? [...here, signal.seat] : here } };
  },
} as GameRules<BellState, TallyCommand>;

/** Here the bell's ring is a boundary. The room must record it, so the ring's own write can fail. */
const recordedBell: GameRules<BellState, TallyCommand> = {
  ...bell,
  onSignal: (s, signal, ctx) => {
    const o = bell.onSignal(s, signal, ctx);
    return signal.kind === 'deadline' && o.state !== s ? { ...o, boundary: true } : o;
  },
};

let scheduler: VirtualScheduler;
let clock: Clock;
beforeEach(() => {
  scheduler = new VirtualScheduler();
  clock = scheduler.clock(T0);
});

/**
 * A store that refuses every statement while `failing`. While `silent` it answers none, and each
 * statement gives up when its time runs out. While `doubtful` it leaves each one unanswered until
 * the test settles it. It keeps the inputs of the statements it commits, in order.
 */
class FlakyStore implements RoomStore {
  failing = false;
  silent = false;
  doubtful = false;
  readonly tries: JournalStep[] = [];
  readonly budgets: number[] = [];
  readonly committed: JournalInput[] = [];
  /** The statements left in doubt, oldest first. `settle(recorded)` settles one either way. */
  readonly inDoubt: { settle(recorded: boolean): void }[] = [];

  async append(step: JournalStep, _at: unknown, timeoutMs: number): Promise<void> {
    this.tries.push(step);
    this.budgets.push(timeoutMs);
    if (this.silent)
      return new Promise((_resolve, reject) => scheduler.setTimer(() => reject(new StoreUnavailableError('no answer in time')), timeoutMs));
    if (this.doubtful) {
      return new Promise((resolve, reject) =>
        this.inDoubt.push({
          settle: (recorded) =>
            recorded ? (this.committed.push(...step.inputs), resolve()) : reject(new StoreUnavailableError('settled: not recorded')),
        }),
      );
    }
    if (this.failing) throw new StoreUnavailableError('PostgreSQL is away');
    this.committed.push(...step.inputs);
  }
}

function viewer(role: Role, seat?: string) {
  const replies: ReplyFrame[] = [];
  const frames: { type: string; data: any }[] = [];
  const v: Viewer = {
    socketId: `${role}-${seat ?? ''}`,
    role,
    seat,
    wire: 'json',
    sendEvent: ({ type, data }) => void frames.push({ type, data: JSON.parse(JSON.stringify(data)) }),
    sendReply: (r) => void replies.push(r),
    close: () => undefined,
  };
  /** The types of the frames the viewer got after its first frame (which was the room as it stood). */
  const types = () => frames.slice(1).map((f) => f.type);
  return { v, replies, frames, types };
}

function state(overrides: Partial<BellState> = {}): BellState {
  return { code: 'ABCDEF', seats: ['p1', 'p2'], total: 0, closed: false, ...overrides };
}

function open(rules: GameRules<BellState, TallyCommand>, initial: BellState, store: FlakyStore) {
  return RoomActor.restore(
    { code: 'ABCDEF', roomId: 'room-1', openedAt: T0 },
    rules,
    { state: initial, journal: [], replies: [] },
    actorDeps(store, { clock, scheduler }),
  );
}

/** The room as a replay of what the store committed rebuilds it, with the deadlines due by now taken. */
function replayed(rules: GameRules<BellState, TallyCommand>, initial: BellState, store: FlakyStore): BellState {
  const driver = new RuleDriver(rules, SEED);
  const refused: unknown[] = [];
  const state = driver.replay(initial, store.committed, { refused: (_e, err) => refused.push(err), acknowledged: () => undefined });
  expect(refused).toEqual([]);
  return driver.caughtUp(state, clock.now());
}

const arrival = () => ({ at: clock.now(), hr: scheduler.now() });
/** The journal's record that seat `seat`'s socket opened at `at`. It rides with the room's next statement. */
const arrived = (seat: string, at: number): JournalInput => ({ kind: 'signal', at, body: { kind: 'presence', seat, connected: true } });
const add = (id: string, n: number) => ({ id, type: 'tally.add', data: { n } });

/**
 * Opens a room whose bell is due at 5 s, watched by `watchers`. At 1 s its store turns `failing`
 * (or `doubtful`), and p1 adds 2, from the watcher that is p1 or else from a socket of its own.
 */
async function writesFailFrom1s(watchers: Viewer[], how: 'failing' | 'doubtful' = 'failing') {
  const store = new FlakyStore();
  const initial = state({ bellAt: T0 + 5000 });
  const r = open(bell, initial, store);
  for (const w of watchers) r.attach(w);
  await scheduler.advance(1000);
  store[how] = true;
  r.submit(watchers.find((w) => w.seat === 'p1') ?? viewer('player', 'p1').v, add('a', 2), arrival());
  return { store, initial, r };
}

/**
 * Checks that the bell rings at `at` and not before, that the store's journal rebuilds the live
 * room, and that the room then goes.
 */
async function ringsAt(
  at: number,
  { store, initial, r }: { store: FlakyStore; initial: BellState; r: RoomActor<BellState, TallyCommand> },
  rules = bell,
) {
  await scheduler.advance(at - clock.now());
  expect(r.snapshot.rungAt).toBeUndefined();
  await scheduler.advance(1);
  expect(r.snapshot.rungAt).toBe(at);
  expect(replayed(rules, initial, store)).toEqual(r.snapshot);
  r.dispose();
}

describe('a room whose writes fail', () => {
  it('rings no deadline while they fail, tries a write once a second, and moves the deadline on by the time held once one succeeds', async () => {
    const p = viewer('player', 'p1');
    const room = await writesFailFrom1s([p.v]);
    const { store, r } = room;
    await scheduler.flush();
    expect(p.replies).toMatchObject([{ id: 'a', status: 503, error: { code: 'database_unavailable' } }]);
    expect(p.frames.filter((f) => f.type === 'room.paused')).toEqual([
      { type: 'room.paused', data: { reason: 'storage', since: T0 + 1000 } },
    ]);

    // The database is away for ten seconds. The bell, due at 5 s, does not ring, and the room tries a write of its own each second.
    await scheduler.advance(10_000);
    expect(store.tries).toHaveLength(11);
    expect(store.tries.slice(1).map((t) => t.inputs)).toEqual(
      Array.from({ length: 10 }, (_, i) => [arrived('p1', T0), { kind: 'clock_held', at: T0 + 1000, body: { ms: 1000 * (i + 1) } }]),
    );
    expect(p.types()).toEqual(['room.paused']);
    expect(r.snapshot.rungAt).toBeUndefined();

    // The database is back. The next attempt commits and records the hold; the sockets are told and get the room again.
    store.failing = false;
    await scheduler.advance(1000);
    expect(store.committed).toEqual([arrived('p1', T0), { kind: 'clock_held', at: T0 + 1000, body: { ms: 11_000 } }]);
    expect(p.types()).toEqual(['room.paused', 'room.resumed', 'tally.state']);
    expect(p.frames.find((f) => f.type === 'room.resumed')?.data).toEqual({ heldMs: 11_000 });
    expect(r.snapshot.bellAt).toBe(T0 + 16_000);

    // The bell rings 11 s late, at its moved moment and not before, and nothing more is tried.
    await ringsAt(T0 + 16_000, room);
    await scheduler.advance(10_000);
    expect(store.tries).toHaveLength(12);
  });

  it('lets a command that comes once the database is back carry the hold: one statement, decided when the clocks stopped', async () => {
    const [p1, p2] = [viewer('player', 'p1'), viewer('player', 'p2')];
    const room = await writesFailFrom1s([p1.v, p2.v]);
    const { store, r } = room;
    await scheduler.advance(500);
    store.failing = false;
    r.submit(p2.v, add('b', 3), arrival());
    await scheduler.flush();
    expect(p2.replies).toEqual([{ type: 'reply', id: 'b', status: 200, data: { total: 3 } }]);
    expect(store.tries).toHaveLength(2);
    expect(store.committed).toEqual([
      arrived('p1', T0),
      arrived('p2', T0),
      { kind: 'command', at: T0 + 1000, actor: { role: 'player', seat: 'p2' }, commandId: 'b', body: add('b', 3) },
      { kind: 'clock_held', at: T0 + 1000, body: { ms: 500 } },
    ]);
    expect(p2.types().filter((t) => t.startsWith('room.') || t === 'tally.added')).toEqual(['room.paused', 'tally.added', 'room.resumed']);
    expect(r.snapshot.bellAt).toBe(T0 + 5500);
    // The room's own attempt is not needed any more.
    await scheduler.advance(2000);
    expect(store.tries).toHaveLength(2);
    await ringsAt(T0 + 5500, room);
  });

  it('takes a presence change at once while held, at the moment the clocks stopped, and records it with the write that resumes them', async () => {
    const room = await writesFailFrom1s([viewer('host').v]);
    const { store, r } = room;
    await scheduler.advance(300);
    const p2 = viewer('player', 'p2');
    r.attach(p2.v);
    await scheduler.flush();
    expect(r.snapshot.here).toEqual(['p2']);
    // The socket that joined while the clocks were held is told so, right after the room as it stands.
    expect(p2.frames.map((f) => f.type)).toEqual(['tally.state', 'room.paused']);
    expect(store.tries).toHaveLength(1);
    store.failing = false;
    await scheduler.advance(1000);
    expect(store.committed).toEqual([arrived('p2', T0 + 1000), { kind: 'clock_held', at: T0 + 1000, body: { ms: 1000 } }]);
    await ringsAt(T0 + 6000, room);
  });

  it('stops the clocks no later than a deadline whose change could not be recorded, and takes it as they resume', async () => {
    const store = new FlakyStore();
    const initial = state({ bellAt: T0 + 10 });
    const r = open(recordedBell, initial, store);
    const p = viewer('player', 'p1');
    r.attach(p.v);
    store.failing = true;
    // The ring's write fails at 11 ms, and the clocks stop at the moment the ring was due.
    await scheduler.advance(11);
    expect(p.frames.find((f) => f.type === 'room.paused')?.data).toEqual({ reason: 'storage', since: T0 + 10 });
    await scheduler.advance(3000);
    expect(r.snapshot.rungAt).toBeUndefined();
    store.failing = false;
    await scheduler.advance(1000);
    // The store records the hold, then the ring at the moment the clocks resumed (recorded because it is a boundary).
    expect(store.committed).toEqual([arrived('p1', T0), { kind: 'clock_held', at: T0 + 10, body: { ms: 4001 } }]);
    expect(r.snapshot.bellAt).toBe(T0 + 4011);
    await scheduler.advance(1);
    expect(r.snapshot.rungAt).toBe(T0 + 4011);
    expect(store.tries.at(-1)?.snapshot).toBeDefined();
    expect(p.types().filter((t) => t !== 'tally.state')).toEqual(['room.paused', 'room.resumed', 'tally.bell']);
    expect(replayed(recordedBell, initial, store)).toEqual(r.snapshot);
    r.dispose();
  });

  it('holds a command back while its own try waits on a silent database, so that the command is not lost with it', async () => {
    const store = new FlakyStore();
    const r = open(bell, state({ bellAt: T0 + 5000 }), store);
    const host = viewer('host');
    r.attach(host.v);
    store.failing = true;
    const p = viewer('player', 'p1');
    r.submit(p.v, add('a', 1), arrival());
    await scheduler.flush();
    // The database falls silent. A second later, the room's own attempt waits for an answer that never comes.
    store.failing = false;
    store.silent = true;
    await scheduler.advance(1100);
    expect(store.tries).toHaveLength(2);
    expect(store.budgets[1]).toBe(TRY_BUDGET_MS);
    // The database answers again, and a command comes while the attempt is still out. The command waits, then goes out on its own.
    store.silent = false;
    r.submit(p.v, add('b', 2), arrival());
    await scheduler.advance(100);
    expect(p.replies.map((x) => [x.id, x.status])).toEqual([['a', 503]]);
    await scheduler.advance(TRY_BUDGET_MS);
    expect(p.replies.map((x) => [x.id, x.status])).toEqual([
      ['a', 503],
      ['b', 200],
    ]);
    expect(store.committed).toEqual([
      { kind: 'command', at: T0, actor: { role: 'player', seat: 'p1' }, commandId: 'b', body: add('b', 2) },
      { kind: 'clock_held', at: T0, body: { ms: 1000 + TRY_BUDGET_MS } },
    ]);
    expect(host.types()).toEqual(['room.paused', 'tally.added', 'tally.note', 'room.resumed', 'tally.state']);
    r.dispose();
  });

  describe('a statement left in doubt past its budget (a silent database)', () => {
    /** A room whose add at 1 s goes into a silence. The add's budget, less the reply's margin, is spent at 1.95 s. */
    async function doubted() {
      const p = viewer('player', 'p1');
      const room = await writesFailFrom1s([p.v], 'doubtful');
      const { store, r } = room;
      await scheduler.advance(949);
      expect(p.types()).toEqual([]);
      await scheduler.advance(1);
      expect(p.frames.filter((f) => f.type === 'room.paused').map((f) => f.data)).toEqual([{ reason: 'storage', since: T0 + 1950 }]);
      // The bell, due at 5 s, does not ring, and the room's own attempt waits behind the statement in doubt.
      await scheduler.advance(6000);
      expect(r.snapshot.rungAt).toBeUndefined();
      expect(store.tries).toHaveLength(1);
      store.doubtful = false;
      return { ...room, p };
    }

    it('stops the clocks when its budget is spent; settled as not recorded, the hold starts where that write was tried', async () => {
      const room = await doubted();
      const { store, r, p } = room;
      store.inDoubt[0].settle(false);
      await scheduler.flush();
      expect(p.replies).toMatchObject([{ id: 'a', status: 503 }]);
      // Everything decided after the failed statement is undone with it, so the clocks now stop when it was tried.
      expect(p.frames.filter((f) => f.type === 'room.paused').map((f) => f.data.since)).toEqual([T0 + 1950, T0 + 1000]);
      await scheduler.advance(1000);
      expect(store.committed).toEqual([arrived('p1', T0), { kind: 'clock_held', at: T0 + 1000, body: { ms: 7950 } }]);
      expect(r.snapshot.bellAt).toBe(T0 + 5000 + 7950);
      await ringsAt(T0 + 12_950, room);
    });

    it('stops the clocks when its budget is spent; settled as recorded, they hold until the next write records the hold', async () => {
      const room = await doubted();
      const { store, r, p } = room;
      store.inDoubt[0].settle(true);
      await scheduler.flush();
      // A late 200 arrives, and the room is still paused, because nothing has recorded the hold yet.
      expect(p.replies).toEqual([{ type: 'reply', id: 'a', status: 200, data: { total: 2 } }]);
      expect(p.types().filter((t) => t.startsWith('room.'))).toEqual(['room.paused']);
      await scheduler.advance(1000);
      expect(store.committed).toEqual([
        arrived('p1', T0),
        { kind: 'command', at: T0 + 1000, actor: { role: 'player', seat: 'p1' }, commandId: 'a', body: add('a', 2) },
        { kind: 'clock_held', at: T0 + 1950, body: { ms: 7000 } },
      ]);
      expect(p.types().filter((t) => t.startsWith('room.'))).toEqual(['room.paused', 'room.resumed']);
      expect(r.snapshot).toMatchObject({ total: 2, bellAt: T0 + 12_000 });
      await ringsAt(T0 + 12_000, room);
    });
  });

  it('keeps the moment the clocks stopped through failed tries, and tells the sockets once', async () => {
    const store = new FlakyStore();
    const r = open(bell, state({ bellAt: T0 + 2000 }), store);
    const p = viewer('player', 'p1');
    r.attach(p.v);
    store.failing = true;
    r.submit(p.v, add('a', 1), arrival());
    await scheduler.advance(500);
    // Another command is tried while the clocks are held, and fails. The clocks still stopped at 0, not at 500.
    r.submit(p.v, add('b', 1), arrival());
    await scheduler.advance(1000);
    expect(store.tries.map((t) => t.inputs.find((i) => i.kind === 'clock_held'))).toEqual([
      undefined,
      { kind: 'clock_held', at: T0, body: { ms: 500 } },
      { kind: 'clock_held', at: T0, body: { ms: 1500 } },
    ]);
    expect(p.frames.filter((f) => f.type === 'room.paused')).toHaveLength(1);
    r.dispose();
  });
});
