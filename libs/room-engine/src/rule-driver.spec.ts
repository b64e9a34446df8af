import { ReplyFrame, RoomException } from '@app/protocol';
import fc from 'fast-check';
import { chime, chimeStart, ChimeState, ChimeWrite } from '../test/chime.game';
import { Viewer } from './audience';
import { Clock } from './clock';
import { Actor, GameRules, Recorded, unchanged } from './game-rules';
import { RoomActor, RoomActorDeps } from './room-actor';
import { RoomStore } from './room-store';
import { RuleDriver } from './rule-driver';
import { VirtualScheduler } from './virtual-scheduler';

// The one deadline catch-up, used live (before each command, proposal and signal) and in replay
// (before each recorded input and each deadline recorded as taken late), on the chime game.

const T0 = 1_700_000_000_000;
const SEED = 7;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

const withAlarms = (...alarms: number[]): ChimeState => ({ ...chimeStart(), alarms });
const driver = (rules: GameRules<ChimeState, any, ChimeWrite, string, ChimeWrite> = chime) => new RuleDriver(rules, SEED);
const p1: Actor = { role: 'player', seat: 'p1' };
const write = (at: number, inMs: number, id = `c${at}`): ChimeWrite => ({ seat: 'p1', id, at, inMs });
const noHooks = { refused: () => undefined, acknowledged: () => undefined };

describe(RuleDriver.name, () => {
  describe('overdue', () => {
    it('takes the deadlines due before the moment, in order, each at the moment it was due', () => {
      const taken = driver().overdue(withAlarms(10, 20, 30), 25);
      expect(taken.map((o) => o.state.rung.map((r) => [r.due, r.at]))).toEqual([[[10, 10]], [[10, 10], [20, 20]]]);
      expect(taken.at(-1)?.state.alarms).toEqual([30]);
    });

    it('leaves a deadline due at the very moment to after what is stamped with it', () => {
      expect(driver().overdue(withAlarms(10, 20), 20).map((o) => o.state.rung.at(-1)?.due)).toEqual([10]);
      expect(driver().overdue(withAlarms(10), 10)).toEqual([]);
    });

    it('draws at each deadline from the moment it was due, whoever takes it', () => {
      const early = driver().caughtUp(withAlarms(10, 20), 21);
      const late = driver().caughtUp(withAlarms(10, 20), 5_000);
      expect(late.rung).toEqual(early.rung);
    });

    it('stops at a rule that changes nothing, and after 1000 deadlines at a rule that loops', () => {
      const stuck = { ...chime, nextDeadline: () => 0, onSignal: (s: ChimeState) => unchanged<ChimeState, ChimeWrite>(s) };
      expect(driver(stuck).overdue(chimeStart(), 100)).toEqual([]);
      const looping = { ...chime, nextDeadline: () => 0, onSignal: (s: ChimeState) => unchanged<ChimeState, ChimeWrite>({ ...s }) };
      expect(driver(looping).overdue(chimeStart(), 100)).toHaveLength(1000);
    });

    it('comes to the same state taken in two stretches or in one', () => {
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 12 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 600 }), (alarms, a, b) => {
          const [first, second] = [Math.min(a, b), Math.max(a, b)];
          const start = withAlarms(...[...alarms].sort((x, y) => x - y));
          const d = driver();
          expect(d.caughtUp(d.caughtUp(start, first), second)).toEqual(d.caughtUp(start, second));
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('decideEach', () => {
    it('decides each command after the deadlines due before it, keeps a refusal as the rules gave it, and lists every change in order', () => {
      const letter = (at: number, inMs: number) => ({
        message: { kind: 'command' as const, viewer: p1, command: { id: `c${at}`, type: 'chime.set' as const, data: { inMs } }, arrival: { at, hr: 0 }, reply: () => undefined },
        enqueuedAt: 0,
      });
      const round = driver().decideEach(withAlarms(10, 30), [letter(20, 100), letter(25, -1), letter(40, 5)]);
      expect(round.decided.map((d) => (d.outcome ? d.outcome.reply : (d.error as RoomException).code))).toEqual([{ rung: 1, alarms: 2 }, 'past', { rung: 2, alarms: 2 }]);
      expect(round.taken.map((o) => (o.writes.length ? `set@${o.writes[0].at}` : `rang@${o.state.rung.at(-1)!.due}`))).toEqual(['rang@10', 'set@20', 'rang@30', 'set@40']);
      expect(round.state.alarms).toEqual([45, 120]);
    });

    it('lets anything but a refusal through, for the room to answer 503', () => {
      const broken = { ...chime, decide: () => { throw new Error('bug'); } };
      const letter = { message: { kind: 'command' as const, viewer: p1, command: { id: 'x', type: 'chime.set' as const, data: { inMs: 1 } }, arrival: { at: 1, hr: 0 }, reply: () => undefined }, enqueuedAt: 0 };
      expect(() => driver(broken).decideEach(chimeStart(), [letter])).toThrow('bug');
    });
  });

  describe('replay', () => {
    it('takes the deadlines that fell between recorded inputs at their moments, and rebuilds the acknowledged replies', () => {
      const acks: [Actor, ReplyFrame][] = [];
      const journal: Recorded<ChimeWrite>[] = [
        { at: 100, entry: write(100, 50), ack: { actor: p1, commandId: 'a' } },
        { at: 200, entry: write(200, 10), ack: { actor: p1, commandId: 'b' } },
      ];
      const state = driver().replay({ state: chimeStart(), journal, acknowledged: [] }, { ...noHooks, acknowledged: (a, r) => acks.push([a, r]) });
      expect(state.rung.map((r) => r.due)).toEqual([150]);
      expect(state.inputs.map((i) => i.rungBefore)).toEqual([0, 1]);
      expect(acks).toEqual([
        [p1, { type: 'reply', id: 'a', status: 200, data: { rung: 0, alarms: 1 } }],
        [p1, { type: 'reply', id: 'b', status: 200, data: { rung: 1, alarms: 1 } }],
      ]);
    });

    it('takes a deadline recorded as taken late at the moment it was taken, and drops one that no longer matches', () => {
      const journal: Recorded<ChimeWrite>[] = [{ at: 900, entry: write(900, 1) }];
      const lateDeadlines = [
        { due: 60, at: 700 },
        { due: 40, at: 500 },
      ];
      const state = driver().replay({ state: withAlarms(40, 50, 60), journal, acknowledged: [], lateDeadlines }, noHooks);
      // 40 late at 500; 50 on time before 60's late record; 60 late at 700; the input at 900.
      expect(state.rung.map((r) => [r.due, r.at])).toEqual([[40, 500], [50, 50], [60, 700]]);
      const stale = driver().replay({ state: withAlarms(50), journal, acknowledged: [], lateDeadlines: [{ due: 45, at: 500 }] }, noHooks);
      expect(stale.rung.map((r) => [r.due, r.at])).toEqual([[50, 50]]);
    });

    it('skips a recorded input the rules refuse, and says so', () => {
      const refused: unknown[] = [];
      const picky = { ...chime, replay: (s: ChimeState, e: ChimeWrite) => (e.inMs === 13 ? (() => { throw new Error('unlucky'); })() : chime.replay(s, e, driver().context(e.at))) };
      const journal: Recorded<ChimeWrite>[] = [{ at: 1, entry: write(1, 13) }, { at: 2, entry: write(2, 5) }];
      const state = driver(picky).replay({ state: chimeStart(), journal, acknowledged: [] }, { ...noHooks, refused: (e) => refused.push(e) });
      expect(refused).toEqual([write(1, 13)]);
      expect(state.alarms).toEqual([7]);
    });
  });

  describe('live and in replay', () => {
    /** One command: after `gapMs` of the scheduler, with the clock `busyMs` further on (timers late). */
    const stepArb = fc.record({
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60 })),
      busyMs: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 80 }) }),
      seat: fc.constantFrom('p1', 'p2', 'p3'),
      inMs: fc.integer({ min: -5, max: 100 }),
    });
    const runArb = fc.record({
      steps: fc.array(stepArb, { minLength: 1, maxLength: 25 }),
      commitMs: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 4 }),
      pipelineDepth: fc.constantFrom(1, 2, 8),
    });
    type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

    function deps(scheduler: VirtualScheduler, clock: Clock, store: RoomStore<ChimeWrite, string>, pipelineDepth = 8): RoomActorDeps<ChimeWrite, string> {
      return {
        store,
        clock,
        scheduler,
        observer: { command: () => undefined },
        mailboxDepth: 8,
        pipelineDepth,
        passivateAfterMs: 3_600_000,
        commandBudgetMs: 1000,
        seed: SEED,
        committedStatements: 0,
        onDispose: () => undefined,
        log: () => undefined,
      };
    }

    function seatViewer(seat: string, replies: Map<string, ReplyFrame>): Viewer {
      return { socketId: seat, role: 'player', seat, wire: 'json', sendEvent: () => undefined, sendReply: (r) => replies.set(r.id!, r), close: () => undefined };
    }

    const noLateDeadline = async () => {
      throw new Error('nothing is late in these rooms');
    };

    /** A live room on virtual time: commands at their moments, statements answering after their delays, until every alarm rang. */
    async function playLive(run: Run) {
      const scheduler = new VirtualScheduler();
      let busy = 0;
      const clock: Clock = { now: () => T0 + scheduler.now() + busy };
      const journal: Recorded<ChimeWrite>[] = [];
      let statements = 0;
      const store: RoomStore<ChimeWrite, string> = {
        commit: (writes) => {
          // Statements are sent in order and all commit: the record is what was sent.
          for (const w of writes) journal.push({ at: w.at, entry: w, ack: { actor: { role: 'player', seat: w.seat }, commandId: w.id } });
          const delay = run.commitMs[statements++ % run.commitMs.length];
          return new Promise((resolve) => (delay === 0 ? resolve(writes.map(() => 'ok')) : scheduler.setTimer(() => resolve(writes.map(() => 'ok')), delay)));
        },
        recordLateDeadline: noLateDeadline,
      };
      const live = RoomActor.restore({ code: 'CHIME1', roomId: 'room-1', openedAt: T0 }, chime, { state: chimeStart(), journal: [], acknowledged: [] }, deps(scheduler, clock, store, run.pipelineDepth));
      const replies = new Map<string, ReplyFrame>();
      const viewers = new Map(['p1', 'p2', 'p3'].map((seat) => [seat, seatViewer(seat, replies)]));
      for (const [i, step] of run.steps.entries()) {
        busy += step.busyMs;
        await scheduler.advance(step.gapMs);
        live.submit(viewers.get(step.seat)!, { id: `c${i}`, type: 'chime.set', data: { inMs: step.inMs } }, { at: clock.now(), hr: scheduler.now() });
      }
      await scheduler.runUntilIdle();
      return { live, journal, replies };
    }

    it('a room rebuilt from what its statements recorded, run out, is the live room run out, with the same replies', async () => {
      await fc.assert(
        fc.asyncProperty(runArb, async (run) => {
          const { live, journal, replies } = await playLive(run);
          expect(live.snapshot.alarms).toEqual([]);
          const scheduler = new VirtualScheduler();
          const restoredAt = journal.at(-1)?.at ?? T0;
          const store: RoomStore<ChimeWrite, string> = { commit: async () => Promise.reject(new Error('a replay writes nothing')), recordLateDeadline: noLateDeadline };
          const rebuilt = RoomActor.restore({ code: 'CHIME1', roomId: 'room-1', openedAt: T0 }, chime, { state: chimeStart(), journal, acknowledged: [] }, deps(scheduler, scheduler.clock(restoredAt), store));
          await scheduler.runUntilIdle();
          expect(rebuilt.snapshot).toEqual(live.snapshot);
          const again = new Map<string, ReplyFrame>();
          for (const { entry } of journal) rebuilt.submit(seatViewer(entry.seat, again), { id: entry.id, type: 'chime.set', data: { inMs: entry.inMs } }, { at: 0, hr: 0 });
          expect([...again.values()]).toEqual(journal.map(({ entry }) => replies.get(entry.id)));
        }),
        { numRuns: RUNS },
      );
    });
  });
});
