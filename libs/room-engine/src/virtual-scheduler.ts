import { Clock } from './clock';
import { Scheduler, TimerHandle } from './scheduler';

interface VirtualTimer {
  readonly due: number;
  readonly seq: number;
  readonly fn: () => void;
  readonly unref: boolean;
}

/**
 * The most rounds or moments one call runs. Without a limit, a callback that sets itself again at
 * once would never let a test end.
 */
const MAX_TASKS = 100_000;

/**
 * A scheduler for tests, on virtual time. Nothing rings until the test moves time on, and no real
 * time passes. Timers ring in the order of their moments, and timers with the same moment in the
 * order they were set. At each moment the timers due go first, then the turn callbacks. Promise
 * callbacks run between any two tasks, as on the event loop: one real turn of the loop lets them
 * run, and no real timer is ever used.
 *
 * @example
 * const s = new VirtualScheduler();
 * const room = RoomActor.restore(ids, rules, restored, { ...deps, scheduler: s, clock: s.clock(T0) });
 * room.submit(viewer, frame, { at: T0 + s.now(), hr: s.now() });
 * await s.flush();        // the batch is now decided and committed, and the reply sent
 * await s.advance(5_000); // the deadline 5 s away has rung, at its own moment
 */
export class VirtualScheduler implements Scheduler {
  private time: number;
  private seq = 0;
  private readonly timers = new Set<VirtualTimer>();
  private turn: (() => void)[] = [];

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  /** A room clock (epoch ms) that starts at `epoch` now and moves with this scheduler's time. */
  clock(epoch: number): Clock {
    const start = this.time;
    return { now: () => epoch + this.time - start };
  }

  setTimer(fn: () => void, ms: number, options?: { readonly unref?: boolean }): TimerHandle {
    // Like Node, treat anything below 1 ms (0, negative, NaN) as 1 ms.
    const t: VirtualTimer = { due: this.time + (ms >= 1 ? ms : 1), seq: ++this.seq, fn, unref: options?.unref ?? false };
    this.timers.add(t);
    return t as unknown as TimerHandle;
  }

  clearTimer(timer: TimerHandle | undefined): void {
    if (timer) this.timers.delete(timer as unknown as VirtualTimer);
  }

  afterTurn(fn: () => void): void {
    this.turn.push(fn);
  }

  /** How many timers are set and have not rung yet, `unref` ones included. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /**
   * Runs everything due now, round after round as the event loop does, until nothing is due. Each
   * round runs the timers whose moment has come, then the turn callbacks queued so far (Node's
   * timers and check phases), with promise callbacks after each. No time passes.
   */
  async flush(): Promise<void> {
    for (let round = 0; ; round++) {
      if (round > MAX_TASKS) throw new Error('VirtualScheduler: still busy after 100,000 rounds (something sets itself again at once)');
      await realTurn();
      const due = [...this.timers].filter((t) => t.due <= this.time).sort(byMoment);
      for (const t of due) {
        // An earlier callback of this round may have cleared this timer.
        if (!this.timers.delete(t)) continue;
        t.fn();
        await realTurn();
      }
      const turn = this.turn.splice(0);
      for (const fn of turn) {
        fn();
        await realTurn();
      }
      if (due.length === 0 && turn.length === 0) return;
    }
  }

  /** Moves time on by `ms`, ringing each timer due meanwhile at its own moment. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      await this.flush();
      const next = this.earliest((t) => t.due <= until);
      if (!next) break;
      this.time = next.due;
    }
    this.time = until;
    await this.flush();
  }

  /**
   * Moves time on until no timer keeps it going, as a process runs until only `unref` timers are
   * left. An `unref` timer rings only when time passes it on the way to another timer.
   */
  async runUntilIdle(): Promise<void> {
    for (let i = 0; ; i++) {
      if (i > MAX_TASKS) throw new Error('VirtualScheduler: timers still set after 100,000 moments');
      await this.flush();
      const next = this.earliest((t) => !t.unref);
      if (!next) return;
      this.time = Math.max(this.time, next.due);
    }
  }

  /** What `p` settles to once everything due now has run. Throws if `p` is still pending then. */
  async settled<T>(p: Promise<T>): Promise<T> {
    let done = false;
    const tracked = p.finally(() => (done = true));
    tracked.catch(() => undefined);
    await this.flush();
    if (!done) throw new Error('VirtualScheduler: the promise is still pending once everything due now has run');
    return tracked;
  }

  private earliest(eligible: (t: VirtualTimer) => boolean): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const t of this.timers) if (eligible(t) && (!best || byMoment(t, best) < 0)) best = t;
    return best;
  }
}

function byMoment(a: VirtualTimer, b: VirtualTimer): number {
  return a.due - b.due || a.seq - b.seq;
}

/**
 * Waits one real turn of the event loop, so every promise callback queued so far runs. It uses no
 * timer and waits for no wall-clock time.
 */
function realTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
