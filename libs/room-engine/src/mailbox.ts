import { Scheduler } from './scheduler';

/** One item waiting in a room's mailbox, stamped with when it arrived. */
export interface Letter<M> {
  readonly message: M;
  readonly enqueuedAt: number;
}

export interface MailboxOptions<M> {
  /** When this many commands wait, further ones are refused at once. Internal signals always enter. */
  readonly maxDepth: number;
  /** Whether a message counts against the bound. Commands do; deadlines and signals do not. */
  readonly isBounded: (message: M) => boolean;
  /** Messages that wait together and share a non-null key are handed over as one batch. */
  readonly batchKey: (message: M) => string | null;
  /** Handles one batch. The next batch starts only when this one has settled. */
  readonly process: (batch: Letter<M>[]) => Promise<void> | void;
  /**
   * Runs before each batch is taken, and the mailbox awaits the promise it returns, if any. The
   * owner may thus hold the next batch back while its statements are in flight, so that more of
   * what arrives joins that batch.
   */
  readonly beforeBatch?: () => Promise<void> | undefined;
  readonly onError: (err: unknown) => void;
  /**
   * Letters are stamped on its monotonic clock, because the wait in the mailbox counts as latency.
   * A batch starts after the turn of the event loop in which it arrived.
   */
  readonly scheduler: Scheduler;
}

/**
 * The room actor's mailbox. Messages are handled one batch at a time, in arrival order, and a
 * handler never interleaves with another. While the owner holds the next batch back (because its
 * statements are in flight), later arrivals queue up. Compatible ones (moves of one turn, votes)
 * then go in one batch, which keeps simultaneous commands in one statement.
 */
export class Mailbox<M> {
  private readonly queue: Letter<M>[] = [];
  private bounded = 0;
  private draining = false;
  private closed = false;
  private deepest = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: MailboxOptions<M>) {}

  /** Enqueues a message. Returns false when the mailbox is full or closed, and the caller then answers 503. */
  post(message: M): boolean {
    if (this.closed) return false;
    const counts = this.options.isBounded(message);
    if (counts && this.bounded >= this.options.maxDepth) return false;
    if (counts) this.bounded++;
    this.queue.push({ message, enqueuedAt: this.options.scheduler.now() });
    this.deepest = Math.max(this.deepest, this.bounded);
    if (!this.draining) {
      this.draining = true;
      // Let everything that arrived in this turn of the event loop join the first batch.
      this.options.scheduler.afterTurn(() => void this.drain());
    }
    return true;
  }

  /** How many commands wait now, not counting the batch in hand. */
  get depth(): number {
    return this.bounded;
  }

  get depthMax(): number {
    return this.deepest;
  }

  get busy(): boolean {
    return this.draining;
  }

  /** Resolves once nothing is in hand and nothing waits. */
  whenIdle(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Takes out the letters at the head of the queue for which `settle` returns true (`settle`
   * answers them), stopping at the first for which it returns false.
   */
  settleLeading(settle: (letter: Letter<M>) => boolean): void {
    while (this.queue.length > 0 && settle(this.queue[0])) {
      const [letter] = this.queue.splice(0, 1);
      if (this.options.isBounded(letter.message)) this.bounded--;
    }
  }

  /** Stops taking messages and hands back what still waits, so each can be answered. */
  close(): M[] {
    this.closed = true;
    const left = this.queue.splice(0).map((l) => l.message);
    this.bounded = 0;
    return left;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.closed) {
        const held = this.options.beforeBatch?.();
        if (held) await held;
        if (this.queue.length === 0 || this.closed) break;
        const batch = this.takeBatch();
        try {
          await this.options.process(batch);
        } catch (err) {
          this.options.onError(err);
        }
      }
    } finally {
      this.draining = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private takeBatch(): Letter<M>[] {
    const first = this.queue.shift()!;
    const key = this.options.batchKey(first.message);
    const batch = [first];
    while (key !== null && this.queue.length > 0 && this.options.batchKey(this.queue[0].message) === key) {
      batch.push(this.queue.shift()!);
    }
    for (const letter of batch) if (this.options.isBounded(letter.message)) this.bounded--;
    return batch;
  }
}
