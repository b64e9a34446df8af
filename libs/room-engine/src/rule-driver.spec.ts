import { ReplyFrame, RoomException } from '@app/protocol';
import fc from 'fast-check';
import { chime, chimeStart, ChimeState } from '../test/chime.game';
import { Viewer } from './audience';
import { Clock } from './clock';
import { Actor, GameRules, unchanged } from './game-rules';
import { RoomActor, RoomActorDeps } from './room-actor';
import { JournalInput, RoomStore, StoreUnavailableError } from './room-store';
import { RuleDriver } from './rule-driver';
import { VirtualScheduler } from './virtual-scheduler';

// These tests check the one deadline catch-up on the chime game. It runs live (before each
// command, proposal and signal) and in replay (before each recorded input, and before each
// deadline recorded as taken late).

const T0 = 1_700_000_000_000;
const SEED = 7;
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

const withAlarms = (...alarms: number[]): ChimeState => ({ ...chimeStart(), alarms });
const driver = (rules: GameRules<ChimeState, any> = chime) => new RuleDriver(rules, SEED);
const p1: Actor = { role: 'player', seat: 'p1' };
/** A journaled chime.set sent by p1. */
const set = (at: number, inMs: number, id = `c${at}`): JournalInput => ({
  kind: 'command',
  at,
  actor: p1,
  commandId: id,
  body: { id, type: 'chime.set', data: { inMs } },
});
const late = (due: number, at: number): JournalInput => ({ kind: 'late_deadline', at, body: { due } });
const held = (at: number, ms: number): JournalInput => ({ kind: 'clock_held', at, body: { ms } });
const noHooks = { refused: () => undefined, acknowledged: () => undefined };

describe(RuleDriver.name, () => {
  describe('overdue', () => {
    it('takes the deadlines due before the moment, in order, each at the moment it was due', () => {
      const taken = driver().overdue(withAlarms(10, 20, 30), 25);
      expect(taken.map((o) => o.state.rung.map((r) => [r.due, r.at]))).toEqual([
        [[10, 10]],
        [
          [10, 10],
          [20, 20],
        ],
      ]);
      expect(taken.at(-1)?.state.alarms).toEqual([30]);
    });

    it('leaves a deadline due at the very moment to after what is stamped with it', () => {
      expect(
        driver()
          .overdue(withAlarms(10, 20), 20)
          .map((o) => o.state.rung.at(-1)?.due),
      ).toEqual([10]);
      expect(driver().overdue(withAlarms(10), 10)).toEqual([]);
    });

    it('draws at each deadline from the moment it was due, whoever takes it', () => {
      const early = driver().caughtUp(withAlarms(10, 20), 21);
      const late = driver().caughtUp(withAlarms(10, 20), 5_000);
      expect(late.rung).toEqual(early.rung);
    });

    it('stops at a rule that changes nothing, and after 1000 deadlines at a rule that loops', () => {
      const stuck = { ...chime, nextDeadline: () => 0, onSignal: (s: ChimeState) => unchanged<ChimeState>(s) };
      expect(driver(stuck).overdue(chimeStart(), 100)).toEqual([]);
      const looping = { ...chime, nextDeadline: () => 0, onSignal: (s: ChimeState) => unchanged<ChimeState>({ ...s }) };
      expect(driver(looping).overdue(chimeStart(), 100)).toHaveLength(1000);
    });

    it('comes to the same state taken in two stretches or in one', () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: 500 }), { maxLength: 12 }),
          fc.integer({ min: 0, max: 600 }),
          fc.integer({ min: 0, max: 600 }),
          (alarms, a, b) => {
            const [first, second] = [Math.min(a, b), Math.max(a, b)];
            const start = withAlarms(...[...alarms].sort((x, y) => x - y));
            const d = driver();
            expect(d.caughtUp(d.caughtUp(start, first), second)).toEqual(d.caughtUp(start, second));
          },
        ),
        { numRuns: RUNS },
      );
    });
  });

  describe('decideEach', () => {
    it('decides each command after the deadlines due before it, keeps a refusal as the rules gave it, and lists every change in order', () => {
      const letter = (at: number, inMs: number) => ({
        message: {
          kind: 'command' as const,
          viewer: p1,
          command: { id: `c${at}`, type: 'chime.set' as const, data: { inMs } },
          arrival: { at, hr: 0 },
          reply: () => undefined,
        },
        enqueuedAt: 0,
      });
      const round = driver().decideEach(withAlarms(10, 30), [letter(20, 100), letter(25, -1), letter(40, 5)]);
      expect(round.decided.map((d) => (d.outcome ? d.outcome.reply : (d.error as RoomException).code))).toEqual([
        { rung: 1, alarms: 2 },
        'past',
        { rung: 2, alarms: 2 },
      ]);
      expect(round.taken.map((o) => (o.reply ? `set@${o.state.inputs.at(-1)!.at}` : `rang@${o.state.rung.at(-1)!.due}`))).toEqual([
        'rang@10',
        'set@20',
        'rang@30',
        'set@40',
      ]);
      expect(round.state.alarms).toEqual([45, 120]);
    });

    it('lets anything but a refusal through, for the room to answer 503', () => {
      const broken = {
        ...chime,
        decide: () => {
          throw new Error('bug');
        },
      };
      const letter = {
        message: {
          kind: 'command' as const,
          viewer: p1,
          command: { id: 'x', type: 'chime.set' as const, data: { inMs: 1 } },
          arrival: { at: 1, hr: 0 },
          reply: () => undefined,
        },
        enqueuedAt: 0,
      };
      expect(() => driver(broken).decideEach(chimeStart(), [letter])).toThrow('bug');
    });
  });

  describe('replay', () => {
    it('takes the deadlines that fell between journaled inputs at their moments, and rebuilds the acknowledged replies', () => {
      const acks: [Actor, ReplyFrame][] = [];
      const state = driver().replay(chimeStart(), [set(100, 50, 'a'), set(200, 10, 'b')], {
        ...noHooks,
        acknowledged: (a, r) => acks.push([a, r]),
      });
      expect(state.rung.map((r) => r.due)).toEqual([150]);
      expect(state.inputs.map((i) => i.rungBefore)).toEqual([0, 1]);
      expect(acks).toEqual([
        [p1, { type: 'reply', id: 'a', status: 200, data: { rung: 0, alarms: 1 } }],
        [p1, { type: 'reply', id: 'b', status: 200, data: { rung: 1, alarms: 1 } }],
      ]);
    });

    it('takes a deadline journaled as taken late at the moment it was taken, and drops one that no longer matches', () => {
      const state = driver().replay(withAlarms(40, 50, 60), [late(40, 500), late(60, 700), set(900, 1)], noHooks);
      // 40 rings late at 500; 50 rings on time, before 60's late record; 60 rings late at 700; then comes the input at 900.
      expect(state.rung.map((r) => [r.due, r.at])).toEqual([
        [40, 500],
        [50, 50],
        [60, 700],
      ]);
      const stale = driver().replay(withAlarms(50), [late(45, 500), set(900, 1)], noHooks);
      expect(stale.rung.map((r) => [r.due, r.at])).toEqual([[50, 50]]);
    });

    it('takes the deadlines before a hold of the clocks, then moves every clock on by the time it held', () => {
      const state = driver().replay(withAlarms(40, 50, 60), [held(50, 1000), set(900, 1)], noHooks);
      // 40 rings before the hold. 50, due at the hold's very moment, and 60 move on to 1050 and 1060. The input at 900 sets 901.
      expect(state.rung.map((r) => [r.due, r.at])).toEqual([[40, 40]]);
      expect(state.alarms).toEqual([901, 1050, 1060]);
      const unmoved = { ...chime, shiftClocks: undefined };
      expect(driver(unmoved).replay(withAlarms(40, 50), [held(45, 1000)], noHooks).alarms).toEqual([50]);
    });

    it('skips a journaled input the rules refuse, and says so', () => {
      const refused: unknown[] = [];
      const state = driver().replay(chimeStart(), [set(1, -13), set(2, 5)], { ...noHooks, refused: (e) => refused.push(e) });
      expect(refused).toEqual([set(1, -13)]);
      expect(state.alarms).toEqual([7]);
    });

    it('replays a named proposal with its arguments, and a presence change after the deadlines before it', () => {
      const seen: unknown[] = [];
      const rules: GameRules<ChimeState, any> = {
        ...chime,
        proposals: {
          snooze: (s: ChimeState, args: { by: number }) => ({ ...unchanged(s), state: { ...s, alarms: s.alarms.map((a) => a + args.by) } }),
        },
        onSignal: (s, signal, ctx) =>
          signal.kind === 'presence' ? (seen.push([signal.seat, s.rung.length]), unchanged(s)) : chime.onSignal(s, signal, ctx),
      };
      const state = driver(rules).replay(
        withAlarms(10, 100),
        [
          { kind: 'signal', at: 50, body: { kind: 'presence', seat: 'p2', connected: true } },
          { kind: 'proposal', at: 60, body: { name: 'snooze', args: { by: 1000 } } },
        ],
        noHooks,
      );
      expect(seen).toEqual([['p2', 1]]);
      expect(state.alarms).toEqual([1100]);
    });
  });

  describe('live and in replay', () => {
    /** One command, sent `gapMs` later by the scheduler, with the clock `busyMs` further on (so timers run late). */
    const stepArb = fc.record({
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60 })),
      busyMs: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 80 }) }),
      seat: fc.constantFrom('p1', 'p2', 'p3'),
      inMs: fc.integer({ min: -5, max: 100 }),
      /** How long the database goes away before this command. It fails every statement sent meanwhile. */
      outageMs: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2500 }) }),
    });
    const runArb = fc.record({
      steps: fc.array(stepArb, { minLength: 1, maxLength: 25 }),
      commitMs: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 4 }),
      pipelineDepth: fc.constantFrom(1, 2, 8),
    });
    type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

    function deps(scheduler: VirtualScheduler, clock: Clock, store: RoomStore, pipelineDepth = 8): RoomActorDeps {
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
      return {
        socketId: seat,
        role: 'player',
        seat,
        wire: 'json',
        sendEvent: () => undefined,
        sendReply: (r) => replies.set(r.id!, r),
        close: () => undefined,
      };
    }

    /**
     * Plays a live room on virtual time until every alarm has rung. Commands arrive at their
     * moments, statements answer after their delays, and the database goes away now and then.
     */
    async function playLive(run: Run) {
      const scheduler = new VirtualScheduler();
      let busy = 0;
      const clock: Clock = { now: () => T0 + scheduler.now() + busy };
      const journal: JournalInput[] = [];
      let statements = 0;
      let awayUntil = -1;
      const store: RoomStore = {
        append: (step, at) => {
          const delay = run.commitMs[statements++ % run.commitMs.length];
          // A statement sent while the database is away fails. So does one that extends a position
          // the database never reached (the position guard). The rest commit in the order sent.
          const commits = scheduler.now() >= awayUntil && at.seq === committed;
          if (commits) {
            committed += 1;
            journal.push(...step.inputs);
          }
          return new Promise((resolve, reject) => {
            const answer = () => (commits ? resolve() : reject(new StoreUnavailableError('PostgreSQL is away')));
            if (delay === 0) answer();
            else scheduler.setTimer(answer, delay);
          });
        },
      };
      let committed = 0;
      const live = RoomActor.restore(
        { code: 'CHIME1', roomId: 'room-1', openedAt: T0 },
        chime,
        { state: chimeStart(), journal: [], replies: [] },
        deps(scheduler, clock, store, run.pipelineDepth),
      );
      const replies = new Map<string, ReplyFrame>();
      const viewers = new Map(['p1', 'p2', 'p3'].map((seat) => [seat, seatViewer(seat, replies)]));
      for (const [i, step] of run.steps.entries()) {
        busy += step.busyMs;
        await scheduler.advance(step.gapMs);
        if (step.outageMs > 0) awayUntil = Math.max(awayUntil, scheduler.now() + step.outageMs);
        live.submit(
          viewers.get(step.seat)!,
          { id: `c${i}`, type: 'chime.set', data: { inMs: step.inMs } },
          { at: clock.now(), hr: scheduler.now() },
        );
      }
      await scheduler.runUntilIdle();
      return { live, journal, replies };
    }

    // Found by this property in CI: two alarms due at the same moment, and the database away just
    // after it. When the room rang them in two steps, the first was recorded and the clocks stopped
    // at that moment for the second, which a replay cannot tell apart (it rang neither before the hold).
    const TWO_DUE_TOGETHER_THEN_AN_OUTAGE: Run = {
      steps: [
        { gapMs: 1, busyMs: 1, seat: 'p1', inMs: 49, outageMs: 0 },
        { gapMs: 4, busyMs: 0, seat: 'p1', inMs: 45, outageMs: 0 },
        { gapMs: 46, busyMs: 1, seat: 'p1', inMs: 0, outageMs: 1 },
      ],
      commitMs: [0],
      pipelineDepth: 1,
    };

    it('a room rebuilt from what its statements recorded, run out, is the live room run out, with the same replies (outages included)', async () => {
      await fc.assert(
        fc.asyncProperty(runArb, async (run) => {
          const { live, journal, replies } = await playLive(run);
          expect(live.snapshot.alarms).toEqual([]);
          const scheduler = new VirtualScheduler();
          const restoredAt = journal.at(-1)?.at ?? T0;
          const store: RoomStore = { append: async () => Promise.reject(new Error('a replay writes nothing')) };
          const rebuilt = RoomActor.restore(
            { code: 'CHIME1', roomId: 'room-1', openedAt: T0 },
            chime,
            { state: chimeStart(), journal, replies: [] },
            deps(scheduler, scheduler.clock(restoredAt), store),
          );
          await scheduler.runUntilIdle();
          expect(rebuilt.snapshot).toEqual(live.snapshot);
          const again = new Map<string, ReplyFrame>();
          const commands = journal.filter((i): i is Extract<JournalInput, { kind: 'command' }> => i.kind === 'command');
          for (const c of commands)
            rebuilt.submit(seatViewer(c.actor.seat!, again), { ...(c.body as object), id: c.commandId } as never, { at: 0, hr: 0 });
          expect([...again.values()]).toEqual(commands.map((c) => replies.get(c.commandId)));
        }),
        { numRuns: RUNS, examples: [[TWO_DUE_TOGETHER_THEN_AN_OUTAGE]] },
      );
    });
  });
});
