import { okReply } from '@app/protocol';
import { CommitPipeline, Decision } from './commit-pipeline';
import {
  JournalInput,
  JournalStep,
  RoomOutOfOrderError,
  RoomPosition,
  SeatReply,
  StoreUnavailableError,
  UnstorableStepError,
} from './room-store';
import { VirtualScheduler } from './virtual-scheduler';

// These tests run the pipeline on virtual time, with a store whose statements answer when the
// test says. They check the order in which steps are confirmed, what a failure does to the steps
// behind it, what each statement carries (inputs, the inputs that rode along, snapshots), and the
// gathering window.

interface Sent {
  /** The command ids (or kinds) of the inputs the statement carries, in order. */
  readonly names: string[];
  readonly step: JournalStep;
  readonly at: RoomPosition;
  readonly timeoutMs: number;
  resolve(): void;
  reject(err: unknown): void;
}

const command = (id: string): JournalInput => ({
  kind: 'command',
  at: 1,
  actor: { role: 'player', seat: 'p1' },
  commandId: id,
  body: { id, type: 'x' },
});
const presence = (seat: string): JournalInput => ({ kind: 'signal', at: 1, body: { kind: 'presence', seat, connected: true } });
const nameOf = (i: JournalInput) =>
  i.kind === 'command' ? i.commandId : i.kind === 'signal' && i.body.kind === 'presence' ? `presence ${i.body.seat}` : i.kind;
const ack = (id: string): SeatReply => ({ seat: 'p:p1', reply: okReply(id, {}) });

function harness(options: { depth?: number; committedStatements?: number; confirmedReplies?: SeatReply[] } = {}) {
  const scheduler = new VirtualScheduler();
  const sent: Sent[] = [];
  const heard: string[] = [];
  let changed = 0;
  const letGo: string[] = [];
  const faults: unknown[] = [];
  const pipeline = new CommitPipeline<string>('s0', {
    store: {
      append: (step, at, timeoutMs) =>
        new Promise<void>((resolve, reject) => sent.push({ names: step.inputs.map(nameOf), step, at, timeoutMs, resolve, reject })),
    },
    roomId: 'room-1',
    game: 'tally',
    fence: 3,
    depth: options.depth,
    committedStatements: options.committedStatements ?? 10,
    owedReplies: (acks) => [...(options.confirmedReplies ?? []), ...acks],
    snapshotOf: (s) => s,
    scheduler,
    changed: () => changed++,
    letGo: (why) => letGo.push(why),
    faulted: (error) => faults.push(error),
  });
  /**
   * Takes a step named `name` that leaves state `after` with these inputs. The step is durable when
   * it has commands. What the step hears goes to `heard`.
   */
  const take = (name: string, after: string, inputs: (string | JournalInput)[], extra: Partial<Decision<string>> = {}) => {
    const journal = inputs.map((i) => (typeof i === 'string' ? command(i) : i));
    pipeline.take({
      inputs: journal,
      durable: journal.some((i) => i.kind === 'command'),
      acks: [],
      after,
      at: 1000,
      timeoutMs: 900,
      confirm: () => heard.push(`${name} confirmed`),
      refuse: (err, behind) => heard.push(`${name} refused${behind ? ' behind' : ''}: ${(err as Error).message}`),
      ...extra,
    });
  };
  /** Resolves when the gathering window lets the next batch go. `ready()` says whether that has happened. */
  const window = () => {
    const held = pipeline.readyForNextBatch();
    let open = held === undefined;
    void held?.then(() => (open = true));
    return { ready: () => open };
  };
  return { scheduler, pipeline, sent, heard, take, window, faults, changes: () => changed, letGo };
}

describe(CommitPipeline.name, () => {
  describe('steps', () => {
    it('sends each step at once, at the next position with the fence, and confirms in the order taken whichever answers first', async () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('B', 's2', ['b1', 'b2']);
      expect(h.sent.map((s) => [s.names, s.at])).toEqual([
        [['a'], { roomId: 'room-1', seq: 10, fence: 3 }],
        [['b1', 'b2'], { roomId: 'room-1', seq: 11, fence: 3 }],
      ]);
      expect([h.pipeline.state, h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s2', 's0', 2, 2]);
      h.sent[1].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual([]);
      expect(h.pipeline.confirmed).toBe('s0');
      h.sent[0].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual(['A confirmed', 'B confirmed']);
      expect([h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s2', 0, 0]);
    });

    it('confirms a step that journals nothing durable without a statement, in its turn', async () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('quiet', 's1', []);
      await h.scheduler.flush();
      expect(h.heard).toEqual([]);
      h.sent[0].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual(['A confirmed', 'quiet confirmed']);
      expect(h.sent).toHaveLength(1);
    });

    it('journals inputs that need no statement of their own with the next statement, ahead of its own', () => {
      const h = harness();
      h.take('seen', 's1', [presence('p1')]);
      h.take('seen too', 's2', [presence('p2')]);
      expect(h.sent).toEqual([]);
      h.take('A', 's3', ['a']);
      expect(h.sent.map((s) => s.names)).toEqual([['presence p1', 'presence p2', 'a']]);
      h.take('B', 's4', ['b']);
      expect(h.sent[1].names).toEqual(['b']);
    });

    it('carries again what rode on a failed statement, and drops what was decided after it', async () => {
      const h = harness();
      h.take('seen', 's1', [presence('p1')]);
      h.take('A', 's2', ['a']);
      h.take('seen after', 's3', [presence('p2')]);
      h.sent[0].reject(new StoreUnavailableError('timed out'));
      await h.scheduler.flush();
      expect(h.heard).toEqual(['seen confirmed', 'A refused: timed out', 'seen after refused behind: a statement before it failed']);
      expect(h.pipeline.state).toBe('s1');
      h.take('B', 's4', ['b']);
      expect(h.sent[1].names).toEqual(['presence p1', 'b']);
      expect(h.sent[1].at.seq).toBe(10);
    });

    it('snapshots the state a boundary leaves, with the replies owed: confirmed, in flight and its own', () => {
      const h = harness({ confirmedReplies: [ack('old')] });
      h.take('A', 's1', ['a'], { acks: [ack('a')] });
      h.take('end', 's2', ['b'], { acks: [ack('b')], boundary: true, finished: { no: 3, summary: { top: 'p1' } }, closed: 'expired' });
      expect(h.sent[0].step.snapshot).toBeUndefined();
      expect(h.sent[1].step).toEqual({
        inputs: [command('b')],
        snapshot: { at: 1000, snapshot: { state: 's2', replies: [ack('old'), ack('a'), ack('b')] } },
        finished: { no: 3, summary: { top: 'p1' }, game: 'tally' },
        closed: 'expired',
      });
    });

    it('sends nothing for a step with no time left, and refuses it', async () => {
      const h = harness();
      h.take('spent', 's1', ['w'], { timeoutMs: 0 });
      expect(h.sent).toEqual([]);
      expect(h.pipeline.statementsInFlight).toBe(0);
      await h.scheduler.flush();
      expect(h.heard).toEqual(['spent refused: no time left in the command budget']);
      expect(h.pipeline.state).toBe('s0');
    });

    it('tells the room of every step it takes, so that its deadline follows the state in flight', () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('B', 's2', []);
      expect(h.changes()).toBe(2);
    });
  });

  describe('a failed statement', () => {
    it('refuses every step behind it, and takes the room back to what the database has', async () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('B', 's2', ['b']);
      h.take('C', 's3', ['c']);
      h.take('D', 's4', ['d']);
      h.sent[0].resolve();
      h.sent[2].resolve();
      h.sent[1].reject(new StoreUnavailableError('timed out'));
      await h.scheduler.flush();
      expect(h.heard).toEqual([
        'A confirmed',
        'B refused: timed out',
        'C refused behind: a statement before it failed',
        'D refused behind: a statement before it failed',
      ]);
      expect([h.pipeline.state, h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s1', 's1', 0, 0]);
      expect(h.letGo).toEqual([]);
      // Answers that arrive later for the refused steps change nothing.
      h.sent[3].resolve();
      await h.scheduler.flush();
      expect(h.heard).toHaveLength(4);
      // The next statement extends the position the database reached.
      h.take('E', 's5', ['e']);
      expect(h.sent[4].at.seq).toBe(11);
    });

    it('lets the room go when the database holds another history of it', async () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('B', 's2', ['b']);
      const changesBefore = h.changes();
      h.sent[0].reject(new RoomOutOfOrderError(['room-1']));
      await h.scheduler.flush();
      expect(h.letGo).toEqual(['the database holds another history of it']);
      expect(h.changes()).toBe(changesBefore);
      expect(h.heard).toEqual([
        expect.stringMatching(/^A refused: the database holds another history/),
        'B refused behind: a statement before it failed',
      ]);
    });

    it('lets the room go, not retrying, when a step holds what cannot be stored', async () => {
      const h = harness();
      h.take('A', 's1', ['a']);
      h.take('B', 's2', ['b']);
      h.sent[0].reject(new UnstorableStepError('cannot journal the snapshot: it holds a NUL character'));
      await h.scheduler.flush();
      expect(h.letGo).toEqual(['its step could not be stored (cannot journal the snapshot: it holds a NUL character)']);
      expect(h.heard).toEqual([
        'A refused: cannot journal the snapshot: it holds a NUL character',
        'B refused behind: a statement before it failed',
      ]);
      expect(h.pipeline.confirmed).toBe('s0');
    });
  });

  describe('a step whose confirmation throws', () => {
    it('still settles every step, wakes its waiters, and tells the fault once, instead of rejecting', async () => {
      const h = harness();
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        const bug = new TypeError('the view cannot be drawn');
        h.take('A', 's1', ['a'], {
          confirm: () => {
            h.heard.push('A confirmed');
            throw bug;
          },
        });
        h.take('B', 's2', ['b']);
        const settled = h.pipeline.settledOnce();
        h.sent[1].resolve();
        h.sent[0].resolve();
        await h.scheduler.settled(settled);
        expect(h.heard).toEqual(['A confirmed', 'B confirmed']);
        expect(h.faults).toEqual([bug]);
        expect([h.pipeline.confirmed, h.pipeline.inFlight]).toEqual(['s2', 0]);
        // A rejection that nobody handles is reported after the microtasks of its turn, so wait one turn.
        await new Promise((resolve) => setImmediate(resolve));
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });
  });

  describe('the gathering window', () => {
    /** Takes a first step whose statement takes `ms`. The pipeline's recent commit time is then a fifth of that. */
    async function afterACommitOf(h: ReturnType<typeof harness>, ms: number) {
      h.take('first', 's1', ['first']);
      await h.scheduler.advance(ms);
      h.sent.at(-1)!.resolve();
      await h.scheduler.flush();
    }

    it('lets the next batch go at once when nothing is in flight', async () => {
      const h = harness();
      expect(h.window().ready()).toBe(true);
      await afterACommitOf(h, 100);
      expect(h.window().ready()).toBe(true);
    });

    it('holds it behind one step for a tenth of a recent commit, measured from when the step left', async () => {
      const h = harness();
      await afterACommitOf(h, 100); // recent commit: 20 ms, window 2 ms
      h.take('A', 's2', ['a']);
      await h.scheduler.advance(1);
      const w = h.window();
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(0.5);
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(0.5);
      expect(w.ready()).toBe(true);
    });

    it('holds it behind two or more steps for a fifth, and never longer than 20 ms', async () => {
      const h = harness();
      await afterACommitOf(h, 100); // 20 ms: a fifth is 4 ms
      h.take('A', 's2', ['a']);
      h.take('B', 's3', ['b']);
      const w = h.window();
      await h.scheduler.advance(3);
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(1);
      expect(w.ready()).toBe(true);
      const far = harness();
      await afterACommitOf(far, 1000); // 200 ms: a tenth would be 20, a fifth 40
      far.take('A', 's2', ['a']);
      far.take('B', 's3', ['b']);
      const capped = far.window();
      await far.scheduler.advance(19);
      expect(capped.ready()).toBe(false);
      await far.scheduler.advance(1);
      expect(capped.ready()).toBe(true);
    });

    it('ends the window early once every step in flight has settled', async () => {
      const h = harness();
      await afterACommitOf(h, 100);
      h.take('A', 's2', ['a']);
      const w = h.window();
      h.sent.at(-1)!.resolve();
      await h.scheduler.flush();
      expect(w.ready()).toBe(true);
      expect(h.scheduler.pendingTimers).toBe(0);
    });

    it('holds it behind a full pipeline until a step settles', async () => {
      const full = harness({ depth: 2 });
      full.take('A', 's1', ['a']);
      full.take('B', 's2', ['b']);
      const behindFull = full.window();
      await full.scheduler.advance(1_000);
      expect(behindFull.ready()).toBe(false);
      full.sent[0].resolve();
      await full.scheduler.flush();
      // A slot is free again, and the step in flight left 1000 ms ago, so its window is long over.
      expect(behindFull.ready()).toBe(true);
    });
  });
});
