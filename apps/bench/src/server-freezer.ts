import { epochMs, sleep } from '@app/bot-kit';

/** One freeze of the server: when it began (epoch ms), how long it held, and what it was for. */
export interface Freeze {
  readonly at: number;
  readonly heldMs: number;
  readonly game: number;
  readonly question: number;
}

/**
 * Freezes a process with SIGSTOP and wakes it with SIGCONT, the way a starved CPU would stall it.
 * Its timers, its reads and its writes all wait, while the kernel keeps taking bytes into its
 * sockets. The process is never left frozen: SIGCONT is sent at the end of each freeze, when the run
 * is interrupted, and when the bench exits.
 */
export class ServerFreezer {
  readonly freezes: Freeze[] = [];
  private frozen = false;
  private readonly wake = () => {
    if (!this.frozen) return;
    this.frozen = false;
    try {
      process.kill(this.pid, 'SIGCONT');
    } catch {
      // The process is gone, so there is nothing to wake.
    }
  };

  constructor(
    private readonly pid: number,
    private readonly signal?: AbortSignal,
  ) {
    process.once('exit', this.wake);
  }

  /** Freezes the process for `ms`, or less if the run is interrupted meanwhile. */
  async freeze(ms: number, what: { game: number; question: number }): Promise<Freeze> {
    const started = performance.now();
    const at = epochMs();
    process.kill(this.pid, 'SIGSTOP');
    this.frozen = true;
    try {
      await sleep(ms, this.signal);
    } finally {
      this.wake();
    }
    const freeze = { at, heldMs: performance.now() - started, ...what };
    this.freezes.push(freeze);
    return freeze;
  }

  /** Wakes the process if a freeze is on, and stops watching for the bench's exit. */
  dispose(): void {
    this.wake();
    process.off('exit', this.wake);
  }
}

/**
 * Freezes the server once per question, mid-stream. When the share `at` of a question's expected
 * answers has been sent, the server is frozen for `holdMs`, starting `delayMs` later. The delay gives
 * the last answer's statement time to reach PostgreSQL, so that its COMMIT comes back while the
 * server cannot read it. Freezes never overlap: one that falls due during another waits for it.
 */
export class FreezeSchedule {
  private readonly sent = new Map<string, number>();
  private readonly due = new Set<string>();
  private chain: Promise<unknown> = Promise.resolve();
  /** The answers each question expects: rooms seated times players per room. It is set once the rooms are in. */
  expectedPerQuestion = 0;

  constructor(
    private readonly freezer: ServerFreezer,
    private readonly at: number,
    private readonly delayMs: number,
    private readonly holdMs: number,
    private readonly onFreeze?: (what: { game: number; question: number }) => void,
    private readonly signal?: AbortSignal,
  ) {}

  /** Called when an answer to `question` of `game` is about to be sent. */
  answerSending(game: number, question: number): void {
    const key = `${game}:${question}`;
    const n = (this.sent.get(key) ?? 0) + 1;
    this.sent.set(key, n);
    if (this.expectedPerQuestion <= 0 || this.due.has(key) || n < Math.max(1, Math.ceil(this.expectedPerQuestion * this.at))) return;
    this.due.add(key);
    this.chain = this.chain.then(async () => {
      await sleep(this.delayMs, this.signal);
      if (this.signal?.aborted) return;
      this.onFreeze?.({ game, question });
      await this.freezer.freeze(this.holdMs, { game, question });
    });
  }

  /** Resolves once every freeze that fell due has ended. */
  settled(): Promise<unknown> {
    return this.chain;
  }
}
