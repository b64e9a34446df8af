import { Letter, Mailbox, MailboxOptions } from './mailbox';
import { VirtualScheduler } from './virtual-scheduler';

interface Msg {
  readonly name: string;
  /** The batch key. A message with null never batches. */
  readonly key: string | null;
  /** Whether the message counts against the bound. Commands do; signals do not. */
  readonly bounded: boolean;
}

const cmd = (name: string, key: string | null = null): Msg => ({ name, key, bounded: true });
const signal = (name: string): Msg => ({ name, key: null, bounded: false });

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A mailbox whose handler records each batch and then waits until the test releases it, so the
 * test controls exactly when a batch settles.
 */
function harness(overrides: Partial<MailboxOptions<Msg>> = {}, start = 1000) {
  const batches: string[][] = [];
  const letters: Letter<Msg>[][] = [];
  const gates: Deferred[] = [];
  const errors: unknown[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const scheduler = new VirtualScheduler(start);
  const mailbox = new Mailbox<Msg>({
    maxDepth: 10,
    isBounded: (m) => m.bounded,
    batchKey: (m) => m.key,
    process: async (batch) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      batches.push(batch.map((l) => l.message.name));
      letters.push(batch);
      const gate = deferred();
      gates.push(gate);
      try {
        await gate.promise;
      } finally {
        inFlight--;
      }
    },
    onError: (err) => errors.push(err),
    scheduler,
    ...overrides,
  });
  return {
    mailbox,
    batches,
    letters,
    errors,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Lets the mailbox's turn and any settled promises run. No time passes. */
    settle: () => scheduler.flush(),
    advance: (ms: number) => scheduler.advance(ms),
    /** Lets batch `i` settle and gives the mailbox time to move on. */
    async release(i: number) {
      gates[i].resolve();
      await scheduler.flush();
    },
    async fail(i: number, err: unknown) {
      gates[i].reject(err);
      await scheduler.flush();
    },
  };
}

describe(Mailbox.name, () => {
  describe('serial execution', () => {
    it('does not start a second batch before the first settles', async () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      await h.settle();
      expect(h.batches).toEqual([['a']]);
      h.mailbox.post(cmd('b'));
      await h.settle();
      // b waits while the mailbox handles a.
      expect(h.batches).toEqual([['a']]);
      await h.release(0);
      expect(h.batches).toEqual([['a'], ['b']]);
      await h.release(1);
      expect(h.maxInFlight).toBe(1);
    });

    it('handles messages in arrival order', async () => {
      const h = harness();
      for (const name of ['a', 'b', 'c']) h.mailbox.post(cmd(name));
      await h.settle();
      await h.release(0);
      await h.release(1);
      await h.release(2);
      expect(h.batches).toEqual([['a'], ['b'], ['c']]);
      expect(h.maxInFlight).toBe(1);
    });

    it('does not start handling in the same turn as the post', () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      expect(h.batches).toEqual([]);
      expect(h.mailbox.busy).toBe(true);
    });

    it('is busy while a batch is in hand and idle once all settled', async () => {
      const h = harness();
      expect(h.mailbox.busy).toBe(false);
      h.mailbox.post(cmd('a'));
      await h.settle();
      expect(h.mailbox.busy).toBe(true);
      await h.release(0);
      expect(h.mailbox.busy).toBe(false);
    });

    it('starts again after going idle', async () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      await h.settle();
      await h.release(0);
      expect(h.mailbox.busy).toBe(false);
      h.mailbox.post(cmd('b'));
      await h.settle();
      expect(h.batches).toEqual([['a'], ['b']]);
    });

    it('reports a failing batch to onError and goes on with the next', async () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      h.mailbox.post(cmd('b'));
      await h.settle();
      const boom = new Error('boom');
      await h.fail(0, boom);
      expect(h.errors).toEqual([boom]);
      expect(h.batches).toEqual([['a'], ['b']]);
    });

    it('stamps each letter with the time it was posted', async () => {
      const h = harness({}, 5000);
      h.mailbox.post(cmd('a'));
      await h.advance(7);
      h.mailbox.post(cmd('b'));
      await h.settle();
      await h.release(0);
      expect(h.letters.map((batch) => batch.map((l) => l.enqueuedAt))).toEqual([[5000], [5007]]);
    });
  });

  describe('batching', () => {
    it('hands over consecutive same-key messages that wait together as one batch', async () => {
      const h = harness();
      h.mailbox.post(cmd('a1', 'answer'));
      h.mailbox.post(cmd('a2', 'answer'));
      h.mailbox.post(cmd('a3', 'answer'));
      await h.settle();
      expect(h.batches).toEqual([['a1', 'a2', 'a3']]);
    });

    it('batches the messages that arrived while the previous batch was in hand', async () => {
      const h = harness();
      h.mailbox.post(cmd('start'));
      await h.settle();
      h.mailbox.post(cmd('v1', 'vote'));
      h.mailbox.post(cmd('v2', 'vote'));
      h.mailbox.post(cmd('v3', 'vote'));
      await h.release(0);
      expect(h.batches).toEqual([['start'], ['v1', 'v2', 'v3']]);
    });

    it('does not batch across a different key or a null key, keeping the order', async () => {
      const h = harness();
      h.mailbox.post(cmd('a1', 'answer'));
      h.mailbox.post(cmd('a2', 'answer'));
      h.mailbox.post(cmd('v1', 'vote'));
      h.mailbox.post(cmd('x'));
      h.mailbox.post(cmd('a3', 'answer'));
      await h.settle();
      for (let i = 0; i < 4; i++) await h.release(i);
      expect(h.batches).toEqual([['a1', 'a2'], ['v1'], ['x'], ['a3']]);
    });

    it('never batches messages with a null key', async () => {
      const h = harness();
      h.mailbox.post(cmd('x'));
      h.mailbox.post(cmd('y'));
      await h.settle();
      expect(h.batches).toEqual([['x']]);
      await h.release(0);
      expect(h.batches).toEqual([['x'], ['y']]);
    });

    it('does not add messages that arrive after a batch was taken to that batch', async () => {
      const h = harness();
      h.mailbox.post(cmd('a1', 'answer'));
      await h.settle();
      h.mailbox.post(cmd('a2', 'answer'));
      await h.settle();
      expect(h.batches).toEqual([['a1']]);
      await h.release(0);
      expect(h.batches).toEqual([['a1'], ['a2']]);
    });
  });

  describe('bound', () => {
    it('refuses a bounded message past maxDepth', () => {
      const h = harness({ maxDepth: 2 });
      expect(h.mailbox.post(cmd('a'))).toBe(true);
      expect(h.mailbox.post(cmd('b'))).toBe(true);
      expect(h.mailbox.post(cmd('c'))).toBe(false);
      expect(h.mailbox.depth).toBe(2);
    });

    it('always lets an unbounded message in, without counting it', () => {
      const h = harness({ maxDepth: 1 });
      expect(h.mailbox.post(cmd('a'))).toBe(true);
      expect(h.mailbox.post(cmd('b'))).toBe(false);
      expect(h.mailbox.post(signal('deadline'))).toBe(true);
      expect(h.mailbox.post(signal('presence'))).toBe(true);
      expect(h.mailbox.depth).toBe(1);
    });

    it('does not handle a refused message', async () => {
      const h = harness({ maxDepth: 1 });
      h.mailbox.post(cmd('a'));
      h.mailbox.post(cmd('refused'));
      h.mailbox.post(signal('tick'));
      await h.settle();
      await h.release(0);
      await h.release(1);
      expect(h.batches).toEqual([['a'], ['tick']]);
    });

    it('frees room once a batch is taken in hand', async () => {
      const h = harness({ maxDepth: 2 });
      h.mailbox.post(cmd('a1', 'answer'));
      h.mailbox.post(cmd('a2', 'answer'));
      expect(h.mailbox.post(cmd('a3', 'answer'))).toBe(false);
      await h.settle();
      // The batch in hand does not count against the bound, so two more may wait.
      expect(h.mailbox.depth).toBe(0);
      expect(h.mailbox.post(cmd('b1'))).toBe(true);
      expect(h.mailbox.post(cmd('b2'))).toBe(true);
      expect(h.mailbox.post(cmd('b3'))).toBe(false);
      expect(h.mailbox.depth).toBe(2);
    });

    it('counts only bounded messages of a mixed batch out', async () => {
      const h = harness({ maxDepth: 3, batchKey: (m) => m.key });
      h.mailbox.post(cmd('c1'));
      await h.settle();
      h.mailbox.post(signal('s1'));
      h.mailbox.post(cmd('c2'));
      h.mailbox.post(cmd('c3'));
      expect(h.mailbox.depth).toBe(2);
      await h.release(0); // s1 taken
      expect(h.mailbox.depth).toBe(2);
      await h.release(1); // c2 taken
      expect(h.mailbox.depth).toBe(1);
    });
  });

  describe('depthMax', () => {
    it('remembers the deepest the queue of bounded messages has been', async () => {
      const h = harness();
      expect(h.mailbox.depthMax).toBe(0);
      h.mailbox.post(cmd('a'));
      h.mailbox.post(cmd('b'));
      h.mailbox.post(cmd('c'));
      h.mailbox.post(signal('s'));
      expect(h.mailbox.depthMax).toBe(3);
      await h.settle();
      for (let i = 0; i < 4; i++) await h.release(i);
      expect(h.mailbox.depth).toBe(0);
      expect(h.mailbox.depthMax).toBe(3);
      h.mailbox.post(cmd('d'));
      expect(h.mailbox.depthMax).toBe(3);
    });

    it('does not count refused messages', () => {
      const h = harness({ maxDepth: 2 });
      for (const name of ['a', 'b', 'c', 'd']) h.mailbox.post(cmd(name));
      expect(h.mailbox.depthMax).toBe(2);
    });
  });

  describe('close', () => {
    it('hands back what still waits, in order, and handles none of it', async () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      await h.settle();
      h.mailbox.post(cmd('b'));
      h.mailbox.post(signal('s'));
      h.mailbox.post(cmd('c', 'answer'));
      const left = h.mailbox.close();
      expect(left.map((m) => m.name)).toEqual(['b', 's', 'c']);
      expect(h.mailbox.depth).toBe(0);
      await h.release(0);
      await h.settle();
      expect(h.batches).toEqual([['a']]);
    });

    it('refuses every post after close, bounded or not', () => {
      const h = harness();
      h.mailbox.close();
      expect(h.mailbox.post(cmd('a'))).toBe(false);
      expect(h.mailbox.post(signal('s'))).toBe(false);
    });

    it('hands back nothing when nothing waits', () => {
      const h = harness();
      expect(h.mailbox.close()).toEqual([]);
    });

    it('hands back messages posted in the same turn, before any handling', async () => {
      const h = harness();
      h.mailbox.post(cmd('a'));
      h.mailbox.post(cmd('b'));
      expect(h.mailbox.close().map((m) => m.name)).toEqual(['a', 'b']);
      await h.settle();
      expect(h.batches).toEqual([]);
    });
  });
});
