import { CommitPipeline, Decision } from './commit-pipeline';
import { Committed } from './game-rules';
import { RoomOutOfOrderError, RoomPosition, StoreUnavailableError } from './room-store';
import { VirtualScheduler } from './virtual-scheduler';

// The pipeline with a store whose statements answer when the test says, on virtual time: the
// order steps are confirmed in, what a failure does to the steps behind it, the gathering window.

type W = { name: string; needsResult?: boolean };

interface Sent {
  readonly kind: 'commit' | 'late';
  readonly names: string[];
  readonly at: RoomPosition;
  readonly timeoutMs: number;
  resolve(): void;
  reject(err: unknown): void;
}

function harness(options: { depth?: number; committedStatements?: number } = {}) {
  const scheduler = new VirtualScheduler();
  const sent: Sent[] = [];
  const heard: string[] = [];
  let changed = 0;
  let outOfOrder = 0;
  const statement = (kind: Sent['kind'], names: string[], at: RoomPosition, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => sent.push({ kind, names, at, timeoutMs, resolve, reject }));
  const pipeline = new CommitPipeline<string, W, string>('s0', {
    store: {
      commit: (writes, at, timeoutMs) => statement('commit', writes.map((w) => w.name), at, timeoutMs).then(() => writes.map((w) => `r:${w.name}`)),
      recordLateDeadline: (at, due, takenAt, timeoutMs) => statement('late', [`late ${due}@${takenAt}`], at, timeoutMs),
    },
    roomId: 'room-1',
    fence: 3,
    needsResult: (w) => w.needsResult ?? false,
    depth: options.depth,
    committedStatements: options.committedStatements ?? 10,
    scheduler,
    changed: () => changed++,
    outOfOrder: () => outOfOrder++,
  });
  /** A step named `name` leaving state `after`, writing `writes`; what it hears goes to `heard`. */
  const take = (name: string, after: string, writes: W[], extra: Partial<Decision<string, W, string>> = {}) =>
    pipeline.take({
      writes,
      after,
      timeoutMs: 900,
      confirm: (committed: Committed<W, string>[]) => heard.push(`${name} confirmed ${committed.map((c) => c.result).join(',')}`.trim()),
      refuse: (err, behind) => heard.push(`${name} refused${behind ? ' behind' : ''}: ${(err as Error).message}`),
      ...extra,
    });
  /** Resolves when the gathering window lets the next batch go; `ready()` says whether it has. */
  const window = () => {
    const held = pipeline.readyForNextBatch();
    let open = held === undefined;
    void held?.then(() => (open = true));
    return { ready: () => open };
  };
  return { scheduler, pipeline, sent, heard, take, window, changes: () => changed, outOfOrders: () => outOfOrder };
}

describe(CommitPipeline.name, () => {
  describe('steps', () => {
    it('sends each step at once, at the next position with the fence, and confirms in the order taken whichever answers first', async () => {
      const h = harness();
      h.take('A', 's1', [{ name: 'a' }]);
      h.take('B', 's2', [{ name: 'b1' }, { name: 'b2' }]);
      expect(h.sent.map((s) => [s.names, s.at])).toEqual([
        [['a'], { roomId: 'room-1', seq: 10, fence: 3 }],
        [['b1', 'b2'], { roomId: 'room-1', seq: 11, fence: 3 }],
      ]);
      expect([h.pipeline.state, h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s2', 's0', 2, 3]);
      h.sent[1].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual([]);
      expect(h.pipeline.confirmed).toBe('s0');
      h.sent[0].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual(['A confirmed r:a', 'B confirmed r:b1,r:b2']);
      expect([h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s2', 0, 0]);
    });

    it('confirms a step that writes nothing without a statement, in its turn', async () => {
      const h = harness();
      h.take('A', 's1', [{ name: 'a' }]);
      h.take('quiet', 's1', []);
      await h.scheduler.flush();
      expect(h.heard).toEqual([]);
      h.sent[0].resolve();
      await h.scheduler.flush();
      expect(h.heard).toEqual(['A confirmed r:a', 'quiet confirmed']);
      expect(h.sent).toHaveLength(1);
    });

    it('records a late deadline in a statement of its own, ahead of the writes it led to', () => {
      const h = harness();
      h.take('late', 's1', [{ name: 'w' }], { late: { due: 500, at: 900 } });
      expect(h.sent.map((s) => [s.kind, s.names, s.at.seq])).toEqual([
        ['late', ['late 500@900'], 10],
        ['commit', ['w'], 11],
      ]);
      expect(h.pipeline.statementsInFlight).toBe(2);
    });

    it('sends nothing for a step with no time left, and refuses it', async () => {
      const h = harness();
      h.take('spent', 's1', [{ name: 'w' }], { timeoutMs: 0 });
      expect(h.sent).toEqual([]);
      expect(h.pipeline.statementsInFlight).toBe(0);
      await h.scheduler.flush();
      expect(h.heard).toEqual(['spent refused: no time left in the command budget']);
      expect(h.pipeline.state).toBe('s0');
    });

    it('tells the room of every step it takes, so that its deadline follows the state in flight', () => {
      const h = harness();
      h.take('A', 's1', [{ name: 'a' }]);
      h.take('B', 's2', []);
      expect(h.changes()).toBe(2);
    });
  });

  describe('a failed statement', () => {
    it('refuses every step behind it, and takes the room back to what the database has', async () => {
      const h = harness();
      h.take('A', 's1', [{ name: 'a' }]);
      h.take('B', 's2', [{ name: 'b' }]);
      h.take('C', 's3', [{ name: 'c' }]);
      h.take('D', 's4', [{ name: 'd' }]);
      h.sent[0].resolve();
      h.sent[2].resolve();
      h.sent[1].reject(new StoreUnavailableError('timed out'));
      await h.scheduler.flush();
      expect(h.heard).toEqual(['A confirmed r:a', 'B refused: timed out', 'C refused behind: a statement before it failed', 'D refused behind: a statement before it failed']);
      expect([h.pipeline.state, h.pipeline.confirmed, h.pipeline.inFlight, h.pipeline.statementsInFlight]).toEqual(['s1', 's1', 0, 0]);
      expect(h.outOfOrders()).toBe(0);
      // Answers heard later for the refused steps change nothing.
      h.sent[3].resolve();
      await h.scheduler.flush();
      expect(h.heard).toHaveLength(4);
      // The next statement extends the position the database reached.
      h.take('E', 's5', [{ name: 'e' }]);
      expect(h.sent[4].at.seq).toBe(11);
    });

    it('lets the room go when the database holds another history of it', async () => {
      const h = harness();
      h.take('A', 's1', [{ name: 'a' }]);
      h.take('B', 's2', [{ name: 'b' }]);
      const changesBefore = h.changes();
      h.sent[0].reject(new RoomOutOfOrderError(['room-1']));
      await h.scheduler.flush();
      expect(h.outOfOrders()).toBe(1);
      expect(h.changes()).toBe(changesBefore);
      expect(h.heard).toEqual([expect.stringMatching(/^A refused: the database holds another history/), 'B refused behind: a statement before it failed']);
    });
  });

  describe('the gathering window', () => {
    /** A first step whose statement took `ms`: the pipeline's recent commit time is then a fifth of it. */
    async function afterACommitOf(h: ReturnType<typeof harness>, ms: number) {
      h.take('first', 's1', [{ name: 'first' }]);
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
      h.take('A', 's2', [{ name: 'a' }]);
      await h.scheduler.advance(1);
      const w = h.window();
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(0.5);
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(0.5);
      expect(w.ready()).toBe(true);
    });

    it('holds it behind two or more steps for a quarter, and never longer than 20 ms', async () => {
      const h = harness();
      await afterACommitOf(h, 100); // 20 ms: a quarter is 5 ms
      h.take('A', 's2', [{ name: 'a' }]);
      h.take('B', 's3', [{ name: 'b' }]);
      const w = h.window();
      await h.scheduler.advance(4);
      expect(w.ready()).toBe(false);
      await h.scheduler.advance(1);
      expect(w.ready()).toBe(true);
      const far = harness();
      await afterACommitOf(far, 1000); // 200 ms: a tenth would be 20, a quarter 50
      far.take('A', 's2', [{ name: 'a' }]);
      far.take('B', 's3', [{ name: 'b' }]);
      const capped = far.window();
      await far.scheduler.advance(19);
      expect(capped.ready()).toBe(false);
      await far.scheduler.advance(1);
      expect(capped.ready()).toBe(true);
    });

    it('ends the window early once every step in flight has settled', async () => {
      const h = harness();
      await afterACommitOf(h, 100);
      h.take('A', 's2', [{ name: 'a' }]);
      const w = h.window();
      h.sent.at(-1)!.resolve();
      await h.scheduler.flush();
      expect(w.ready()).toBe(true);
      expect(h.scheduler.pendingTimers).toBe(0);
    });

    it('holds it behind a step whose result the rules need, and behind a full pipeline, until they settle', async () => {
      const h = harness();
      h.take('draw', 's1', [{ name: 'draw', needsResult: true }]);
      const behindBarrier = h.window();
      await h.scheduler.advance(1_000);
      expect(behindBarrier.ready()).toBe(false);
      h.sent[0].resolve();
      await h.scheduler.flush();
      expect(behindBarrier.ready()).toBe(true);
      const full = harness({ depth: 2 });
      full.take('A', 's1', [{ name: 'a' }]);
      full.take('B', 's2', [{ name: 'b' }]);
      const behindFull = full.window();
      await full.scheduler.advance(1_000);
      expect(behindFull.ready()).toBe(false);
      full.sent[0].resolve();
      await full.scheduler.flush();
      // A slot is free again, and the step in flight left 1000 ms ago: its window is long over.
      expect(behindFull.ready()).toBe(true);
    });
  });
});
