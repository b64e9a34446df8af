import { ReplyFrame, Role } from '@app/protocol';
import { actorDeps } from '../test/actor-deps';
import { tally, TallyCommand, TallyState } from '../test/tally.game';
import { GameRules } from './game-rules';
import { RoomActor, RoomActorDeps } from './room-actor';
import { JournalInput, JournalStep, RoomPosition, StoreUnavailableError } from './room-store';
import { Viewer } from './audience';
import { Clock } from './clock';
import { VirtualScheduler } from './virtual-scheduler';

// These tests check the actor's own logic on a toy game with a stand-in store: ordering,
// batching, audiences, replies, recovery. The tests in apps/game-server/test check end to end what
// reaches PostgreSQL. Everything here runs on virtual time: the room's clock moves with the
// scheduler, and only when a test moves it.

const T0 = 1_700_000_000_000;
let scheduler: VirtualScheduler;
let clock: Clock;
beforeEach(() => {
  scheduler = new VirtualScheduler();
  clock = scheduler.clock(T0);
});

function state(overrides: Partial<TallyState> = {}): TallyState {
  return { code: 'ABCDEF', seats: ['p1', 'p2', 'p3'], total: 0, closed: false, ...overrides };
}

/** A viewer that records what it was sent, in order. */
function viewer(role: Role, seat?: string) {
  const log: string[] = [];
  const replies: ReplyFrame[] = [];
  const frames: { type: string; data: unknown }[] = [];
  const v: Viewer = {
    socketId: `${role}-${seat ?? ''}`,
    role,
    seat,
    wire: 'json',
    sendEvent: ({ type, data }) => (frames.push({ type, data: JSON.parse(JSON.stringify(data)) }), log.push(`event:${type}`)),
    sendReply: (r) => (replies.push(r), log.push(`reply:${r.id}:${r.status}`)),
    close: (code) => log.push(`close:${code}`),
  };
  return { v, log, replies, frames };
}

type Commit = (step: JournalStep, at: RoomPosition, timeoutMs: number) => Promise<void>;
/** What a statement journaled, in the toy game's words: an addition by a seat, or a close. */
type Journaled = { kind: 'add'; seat: string; n: number } | { kind: 'close' };

function journaled(step: JournalStep): Journaled[] {
  return step.inputs.flatMap((i): Journaled[] => {
    if (i.kind !== 'command') return [];
    const c = i.body as { type: string; data: { n?: number } };
    return c.type === 'tally.add' ? [{ kind: 'add', seat: i.actor.seat!, n: c.data.n! }] : [{ kind: 'close' }];
  });
}

function deps(commit: Commit, overrides: Partial<RoomActorDeps> = {}) {
  const observed: { type: string; status: number }[] = [];
  const lateRecords: { roomId: string; due: number; at: number }[] = [];
  const d = actorDeps(
    {
      append: (step, at, t) => {
        for (const i of step.inputs) if (i.kind === 'late_deadline') lateRecords.push({ roomId: at.roomId, due: i.body.due, at: i.at });
        return commit(step, at, t);
      },
    },
    { clock, scheduler },
    { observer: { command: (type, status) => observed.push({ type, status }) }, ...overrides },
  );
  return { d, observed, lateRecords };
}

/** A journaled addition by `seat`, as command `id`, at `at`. */
function added(seat: string, n: number, at: number, id = `c-${seat}-${at}`): JournalInput {
  return { kind: 'command', at, actor: { role: 'player', seat }, commandId: id, body: { id, type: 'tally.add', data: { n } } };
}

function room(commit: Commit, initial = state(), journal: JournalInput[] = [], overrides: Partial<RoomActorDeps> = {}) {
  const writes: Journaled[][] = [];
  const { d, observed, lateRecords } = deps((step, at, t) => {
    const j = journaled(step);
    if (j.length) writes.push(j);
    return commit(step, at, t);
  }, overrides);
  const r = RoomActor.restore({ code: 'ABCDEF', roomId: 'room-1', openedAt: T0 }, tally, { state: initial, journal, replies: [] }, d);
  return { r, writes, observed, lateRecords };
}

const ok: Commit = async () => undefined;
const arrival = () => ({ at: clock.now(), hr: scheduler.now() });
const add = (id: string, n: number) => ({ id, type: 'tally.add', data: { n } });
/** Runs everything due now (no time passes) and then expects `cond` to hold. */
const settles = async (cond: () => boolean) => {
  await scheduler.flush();
  expect(cond()).toBe(true);
};

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe(RoomActor.name, () => {
  describe('batches', () => {
    it('commits commands that wait together in one commit and then replies to each', async () => {
      const { r, writes } = room(ok);
      const ps = ['p1', 'p2', 'p3'].map((id) => viewer('player', id));
      for (const p of ps) r.attach(p.v);
      ps.forEach((p, i) => r.submit(p.v, add(`a${i}`, i + 1), arrival()));
      await settles(() => ps.every((p) => p.replies.length === 1));
      expect(ps.map((p) => p.replies[0])).toEqual([
        { type: 'reply', id: 'a0', status: 200, data: { total: 1 } },
        { type: 'reply', id: 'a1', status: 200, data: { total: 3 } },
        { type: 'reply', id: 'a2', status: 200, data: { total: 6 } },
      ]);
      expect(writes).toEqual([
        [
          { kind: 'add', seat: 'p1', n: 1 },
          { kind: 'add', seat: 'p2', n: 2 },
          { kind: 'add', seat: 'p3', n: 3 },
        ],
      ]);
      expect(r.snapshot.total).toBe(6);
      r.dispose();
    });

    it('replies 503 to every command of a batch whose commit fails, and changes nothing', async () => {
      const { r } = room(async () => {
        throw new StoreUnavailableError('gone');
      });
      const a = viewer('player', 'p1');
      r.attach(a.v);
      r.submit(a.v, add('x', 5), arrival());
      await settles(() => a.replies.length === 1);
      expect(a.replies[0]).toMatchObject({ id: 'x', status: 503, error: { code: 'database_unavailable' } });
      expect(r.snapshot.total).toBe(0);
      expect(a.log).not.toContain('event:tally.added');
      r.dispose();
    });

    it('gives the store the time left in the budget, and answers 503 without a statement when none is left', async () => {
      const budgets: number[] = [];
      const { r, writes } = room(async (_step, _at, t) => void budgets.push(t), state(), [], { commandBudgetMs: 1000 });
      const a = viewer('player', 'p1');
      r.attach(a.v);
      // A command that arrived long ago (because it waited behind a stalled statement) has no budget left.
      r.submit(a.v, add('stale', 1), { at: clock.now(), hr: scheduler.now() - 5000 });
      r.submit(a.v, add('fresh', 2), arrival());
      await settles(() => a.replies.length === 2);
      expect(a.replies.map((x) => [x.id, x.status])).toEqual([
        ['stale', 503],
        ['fresh', 200],
      ]);
      expect(writes).toEqual([[{ kind: 'add', seat: 'p1', n: 2 }]]);
      expect(budgets).toHaveLength(1);
      expect(budgets[0]).toBeLessThanOrEqual(950);
      // No time passed, so the statement gets exactly the budget less the reply's margin.
      expect(budgets[0]).toBe(950);
      r.dispose();
    });
  });

  describe('audiences', () => {
    it('delivers each event to exactly its audience', async () => {
      const { r } = room(ok);
      const [p1, p2] = ['p1', 'p2'].map((id) => viewer('player', id));
      const host = viewer('host');
      for (const x of [p1, p2, host]) r.attach(x.v);
      r.submit(p1.v, add('a', 1), arrival());
      await settles(() => p1.replies.length === 1);
      const types = (x: ReturnType<typeof viewer>) => x.frames.map((f) => f.type).filter((t) => t !== 'tally.state');
      expect(types(p1)).toEqual(['tally.added', 'tally.secret']);
      expect(types(p2)).toEqual(['tally.added', 'tally.note']);
      expect(types(host)).toEqual(['tally.added', 'tally.note']);
      r.dispose();
    });

    it('sends the view first, with the profile the socket got', () => {
      const { r } = room(ok, state({ total: 4 }));
      const p = viewer('player', 'p1');
      r.attach(p.v);
      expect(p.frames[0]).toEqual({ type: 'tally.state', data: { total: 4, wire: 'json' } });
      r.dispose();
    });

    it('refuses a socket the rules do not admit', () => {
      const { r } = room(ok);
      expect(r.attach(viewer('player', 'p9').v)).toEqual({ ok: false, closeCode: 4003, reason: 'no seat' });
      r.dispose();
    });
  });

  describe('replies', () => {
    it('answers the type, the role and the shape at once, in that order, and labels unknown types "unknown"', async () => {
      const { r, writes, observed } = room(ok);
      const p = viewer('player', 'p1');
      r.attach(p.v);
      r.submit(p.v, { id: '1', type: 'evil.type.x', data: 'not an object' }, arrival());
      r.submit(p.v, { id: '2', type: 'tally.close', data: 'not an object' }, arrival());
      r.submit(p.v, { id: '3', type: 'tally.add', data: 'not an object' }, arrival());
      expect(p.replies.map((x) => x.status)).toEqual([404, 403, 400]);
      expect(observed.map((o) => o.type)).toEqual(['unknown', 'tally.close', 'tally.add']);
      expect(writes).toEqual([]);
      r.dispose();
    });

    it('answers a ping at once, without the mailbox', () => {
      const { r } = room(ok);
      const p = viewer('spectator');
      r.attach(p.v);
      r.submit(p.v, { id: 'p', type: 'ping', data: {} }, arrival());
      expect(p.replies[0]).toMatchObject({ id: 'p', status: 200, data: { serverTime: expect.any(Number) } });
      r.dispose();
    });

    it('gives a resent id its original reply and does not execute it twice', async () => {
      const { r, writes } = room(ok);
      const p = viewer('player', 'p1');
      r.attach(p.v);
      r.submit(p.v, add('once', 2), arrival());
      await settles(() => p.replies.length === 1);
      r.submit(p.v, add('once', 2), arrival());
      expect(p.replies).toEqual([p.replies[0], p.replies[0]]);
      expect(writes).toHaveLength(1);
      r.dispose();
    });

    it('sends the reply before the events and the events before the close', async () => {
      const { r } = room(ok);
      const host = viewer('host');
      r.attach(host.v);
      r.submit(host.v, { id: 'bye', type: 'tally.close', data: {} }, arrival());
      await settles(() => host.log.includes('close:4004'));
      expect(host.log.slice(host.log.indexOf('reply:bye:200'))).toEqual(['reply:bye:200', 'event:tally.closed', 'close:4004']);
      expect(r.phase).toBe('disposed');
    });

    it.each([
      ['arrives while the statement is out', true],
      ['queued behind it in the same turn', false],
    ])('refuses at once, without waiting for the statement in flight, a command refused either way that %s', async (_when, afterStart) => {
      const held = deferred<void>();
      let committing = false;
      const { r } = room(() => ((committing = true), held.promise));
      const [p1, p2] = ['p1', 'p2'].map((id) => viewer('player', id));
      r.attach(p1.v);
      r.attach(p2.v);
      r.submit(p1.v, add('slow', 1), arrival());
      // The rules refuse a subtraction whatever the addition's statement does, and a subtraction never batches.
      if (afterStart) await settles(() => committing);
      r.submit(p2.v, add('negative', -1), arrival());
      await settles(() => committing);
      expect(p2.replies).toEqual([expect.objectContaining({ id: 'negative', status: 409 })]);
      expect(p1.replies).toEqual([]);
      expect(r.mailboxDepth).toBe(0);
      held.resolve();
      await settles(() => p1.replies.length === 1);
      r.dispose();
    });

    it('answers every command still waiting when the room is disposed', async () => {
      const held = deferred<void>();
      let committing = false;
      const { r } = room(() => ((committing = true), held.promise));
      const a = viewer('player', 'p1');
      r.attach(a.v);
      r.submit(a.v, add('first', 1), arrival());
      await settles(() => committing);
      r.submit(a.v, add('late', 1), arrival());
      r.dispose();
      expect(a.replies).toEqual([
        expect.objectContaining({ id: 'late', status: 409, error: expect.objectContaining({ code: 'room_closed' }) }),
      ]);
      held.resolve();
      await settles(() => a.replies.length === 2);
    });
  });

  describe('lifecycle', () => {
    it('drains: takes no new command (503 shutting_down), finishes the one it holds, then is disposed', async () => {
      const held = deferred<void>();
      let committing = false;
      const { r } = room(() => ((committing = true), held.promise));
      const a = viewer('player', 'p1');
      r.attach(a.v);
      r.submit(a.v, add('held', 1), arrival());
      await settles(() => committing);
      const drained = r.drain();
      expect(r.phase).toBe('draining');
      r.submit(a.v, add('new', 1), arrival());
      expect(a.replies).toEqual([
        expect.objectContaining({ id: 'new', status: 503, error: expect.objectContaining({ code: 'shutting_down' }) }),
      ]);
      held.resolve();
      await scheduler.settled(drained);
      expect(a.replies.map((x) => [x.id, x.status])).toEqual([
        ['new', 503],
        ['held', 200],
      ]);
      expect(r.phase).toBe('disposed');
    });

    it('leaves memory a quiet while after its last socket went, not while one watches, and never keeps the process alive for it', async () => {
      const disposed: string[] = [];
      const { r } = room(ok, state(), [], { passivateAfterMs: 60_000, onDispose: (x) => disposed.push(x.code) });
      const p = viewer('player', 'p1');
      r.attach(p.v);
      await scheduler.advance(120_000);
      expect(r.phase).toBe('live');
      r.detach(p.v);
      // Only the idle timer is left, and it is unref'd, so a process with nothing else to do would exit.
      await scheduler.runUntilIdle();
      expect(r.phase).toBe('live');
      await scheduler.advance(59_999);
      expect(r.phase).toBe('live');
      await scheduler.advance(1);
      expect(r.phase).toBe('disposed');
      expect(disposed).toEqual(['ABCDEF']);
    });
  });

  describe('deadlines', () => {
    it('tells the rules the moment the deadline was due, not when its timer ran', async () => {
      const bellAt = clock.now() + 20;
      const { r } = room(ok, state({ bellAt }));
      const p = viewer('player', 'p1');
      r.attach(p.v);
      // The deadline rings once its millisecond has passed.
      await scheduler.advance(20);
      expect(r.snapshot.rungAt).toBeUndefined();
      await scheduler.advance(1);
      expect(r.snapshot.rungAt).toBe(bellAt);
      expect(p.frames.find((f) => f.type === 'tally.bell')?.data).toEqual({ at: bellAt });
      r.dispose();
    });

    it('takes a deadline due before a command first, at its own moment, even when its timer has not rung yet', async () => {
      // A busy event loop runs the timer late. The command must not overtake the deadline, just as it would not in a replay.
      const bellAt = clock.now() + 60_000;
      const { r, writes } = room(ok, state({ bellAt }));
      const p = viewer('player', 'p1');
      r.attach(p.v);
      r.submit(p.v, add('c1', 2), { at: bellAt + 5, hr: scheduler.now() });
      await settles(() => p.replies.length === 1);
      expect(r.snapshot).toMatchObject({ rungAt: bellAt, total: 2 });
      expect(p.log.filter((l) => l.startsWith('event:tally.bell') || l.startsWith('event:tally.added'))).toEqual([
        'event:tally.bell',
        'event:tally.added',
      ]);
      expect(writes).toEqual([[{ kind: 'add', seat: 'p1', n: 2 }]]);
      // When its timer rings at last, the deadline is already spent, so the bell does not ring twice.
      await scheduler.advance(60_001);
      expect(p.log.filter((l) => l === 'event:tally.bell')).toHaveLength(1);
      r.dispose();
    });

    it("decides a command stamped with the deadline's very millisecond before the deadline, as a replay orders them", async () => {
      const bellAt = clock.now() + 60_000;
      const { r } = room(ok, state({ bellAt }));
      const p = viewer('player', 'p1');
      r.attach(p.v);
      r.submit(p.v, add('c1', 2), { at: bellAt, hr: scheduler.now() });
      await settles(() => p.replies.length === 1);
      expect(r.snapshot).toMatchObject({ bellAt, total: 2 });
      expect(r.snapshot.rungAt).toBeUndefined();
      r.dispose();
    });

    it('takes a deadline that passed while no process had the room now, and records it as taken late', async () => {
      const bellAt = clock.now() - 60_000;
      const before = clock.now();
      const { r, lateRecords } = room(ok, state({ bellAt }));
      await scheduler.settled(r.catchUp());
      expect(r.snapshot.rungAt).toBeGreaterThanOrEqual(before);
      // The deadline was taken as the room came back, and no time has passed since.
      expect(r.snapshot.rungAt).toBe(before);
      expect(lateRecords).toEqual([{ roomId: 'room-1', due: bellAt, at: r.snapshot.rungAt }]);
      r.dispose();
    });

    it('replays a deadline recorded as taken late at the moment it was taken, not when it was due', () => {
      const bellAt = T0 + 50;
      const journal: JournalInput[] = [{ kind: 'late_deadline', at: T0 + 500, body: { due: bellAt } }, added('p1', 1, T0 + 900)];
      const d = deps(ok).d;
      const r = RoomActor.restore(
        { code: 'ABCDEF', roomId: 'room-1', openedAt: T0 },
        tally,
        { state: state({ bellAt }), journal, replies: [] },
        d,
      );
      expect(r.snapshot.rungAt).toBe(T0 + 500);
      expect(r.snapshot.total).toBe(1);
      r.dispose();
    });
  });

  describe('faults', () => {
    // This is tally with a bug: a total of 13 asks every viewer for a fresh view, and the view of 13 throws.
    const unlucky: GameRules<TallyState, TallyCommand> = {
      ...tally,
      decide: (s, actor, command, ctx) => {
        const outcome = tally.decide(s, actor, command, ctx);
        return outcome.state.total === 13 ? { ...outcome, resync: true } : outcome;
      },
      view: (s, viewer, now) => {
        if (s.total === 13) throw new TypeError('no view of an unlucky total');
        return tally.view(s, viewer, now);
      },
    };

    it('lets a room whose publication throws go (1012, counted, logged with its reason) while another room goes on', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const faults: unknown[] = [];
        const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
        const disposed: string[] = [];
        const shared: Partial<RoomActorDeps> = {
          onFault: (error) => faults.push(error),
          onDispose: (x) => disposed.push(x.code),
          log: (level, msg, fields) => logs.push({ level, msg, fields }),
        };
        const restored = { state: state(), journal: [], replies: [] };
        const buggy = RoomActor.restore({ code: 'BUGGY1', roomId: 'room-buggy', openedAt: T0 }, unlucky, restored, deps(ok, shared).d);
        const sound = RoomActor.restore({ code: 'SOUND1', roomId: 'room-sound', openedAt: T0 }, tally, restored, deps(ok, shared).d);
        const [p, q] = [viewer('player', 'p1'), viewer('player', 'p1')];
        buggy.attach(p.v);
        sound.attach(q.v);

        buggy.submit(p.v, add('unlucky', 13), arrival());
        await settles(() => p.log.includes('close:1012'));
        // The addition was committed, so its 200 stands, and the room loads again from what was committed.
        expect(p.replies).toEqual([{ type: 'reply', id: 'unlucky', status: 200, data: { total: 13 } }]);
        expect([buggy.phase, disposed]).toEqual(['disposed', ['BUGGY1']]);
        expect(faults).toEqual([expect.objectContaining({ message: 'no view of an unlucky total' })]);
        expect(logs).toContainEqual({
          level: 'error',
          msg: 'room failed after a commit: its own code threw',
          fields: expect.objectContaining({
            room: 'BUGGY1',
            roomId: 'room-buggy',
            reason: 'TypeError: no view of an unlucky total',
            error: expect.stringContaining('at '),
          }),
        });

        sound.submit(q.v, add('fine', 2), arrival());
        await settles(() => q.replies.length === 1);
        expect(q.replies[0]).toMatchObject({ id: 'fine', status: 200, data: { total: 2 } });
        expect(q.log).toContain('event:tally.added');
        expect(q.log.filter((l) => l.startsWith('close:'))).toEqual([]);
        expect(sound.phase).toBe('live');
        // A rejection that nobody handles is reported after the microtasks of its turn, so wait one turn.
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
        sound.dispose();
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });

  describe('restore', () => {
    it('replays the journal in order, with deadlines between, and remembers the acknowledged replies', async () => {
      const bellAt = T0 + 50;
      const journal: JournalInput[] = [added('p1', 2, T0 + 10, 'c1'), added('p2', 3, T0 + 100, 'c2')];
      const { r, writes } = room(ok, state({ bellAt }), journal);
      expect(r.snapshot.total).toBe(5);
      // The bell fell between the two inputs and rang at its own time.
      expect(r.snapshot.rungAt).toBe(bellAt);
      const p2 = viewer('player', 'p2');
      r.attach(p2.v);
      r.submit(p2.v, add('c2', 3), arrival());
      expect(p2.replies).toEqual([{ type: 'reply', id: 'c2', status: 200, data: { total: 5 } }]);
      expect(writes).toEqual([]);
      r.dispose();
    });
  });
});
