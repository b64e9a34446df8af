import { Committed } from './game-rules';
import { RoomOutOfOrderError, RoomStore, StoreUnavailableError } from './room-store';
import { Scheduler } from './scheduler';

/**
 * While a statement of the room is in flight, the next batch gathers for at most this fraction of
 * a recent commit's time before it follows: votes and answers that arrive milliseconds apart share
 * a statement, and none waits more than a tenth of a round trip for it. A command that arrives
 * while nothing is in flight never waits.
 */
const GATHER_FRACTION = 0.1;
/**
 * With two or more steps already in flight the room is busy (a big room's answers): commands
 * arrive many per round trip, so gathering a quarter of one saves more statements for the wait.
 */
const BUSY_GATHER_FRACTION = 0.25;
/** ...and never longer than this, whatever the database's distance. */
const MAX_GATHER_MS = 20;
/** Steps in flight at most, unless the deps say otherwise: more waiting commands then gather in the mailbox. */
const PIPELINE_DEPTH = 8;

/** A decision the room takes: what it writes, the state it leaves, and who hears of it once it commits (or does not). */
export interface Decision<S, W, R> {
  readonly writes: readonly W[];
  readonly after: S;
  /** What is left of the budget of the oldest command behind it; at 0 or below nothing is sent. */
  readonly timeoutMs: number;
  /** A deadline taken late: recorded in a statement of its own, ahead of the writes. */
  readonly late?: { readonly due: number; readonly at: number };
  readonly confirm: (committed: Committed<W, R>[]) => void;
  /** `behindFailure`: it was refused because a step before it failed, not for its own statement. */
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

/**
 * A decision whose statements are on their way: it is confirmed (replies, events) when they
 * commit and every step before it was confirmed, in the order the steps were taken.
 */
interface Step<S, W, R> {
  readonly statements: number;
  /** The room's state once this step commits. */
  readonly after: S;
  /** Nothing may be decided behind it until it commits (the rules need its result). */
  readonly barrier: boolean;
  readonly sentAt: number;
  result?: { readonly ok: true; readonly committed: Committed<W, R>[] } | { readonly ok: false; readonly error: unknown };
  readonly confirm: (committed: Committed<W, R>[]) => void;
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

export interface CommitPipelineDeps<W, R> {
  readonly store: RoomStore<W, R>;
  readonly roomId: string;
  /** The fencing number of this process's lease on the room, carried by every statement. */
  readonly fence: number;
  /** The rules need this write's result before anything more is decided (GameRules.needsResult). */
  readonly needsResult: (write: W) => boolean;
  /** Steps in flight at most (1: none pipelined). */
  readonly depth?: number;
  /** The room's statements PostgreSQL has applied: where its next one goes. */
  readonly committedStatements: number;
  readonly scheduler: Scheduler;
  /** A step was taken, or the room went back to what the database has: its deadline and idle timer follow. */
  readonly changed: () => void;
  /** A statement was refused because the database holds another history of the room, or another lease. */
  readonly outOfOrder: () => void;
}

/**
 * The room's commits: each decision is a step whose statements leave at once, behind those still
 * in flight, and steps are confirmed strictly in the order they were taken. A failed statement
 * refuses every step behind it (they extend a position the database never reached) and takes the
 * room back to what the database has. It also says when the next batch may be decided (the
 * gathering window) and keeps the statements' positions and a recent commit's time.
 */
export class CommitPipeline<S, W, R> {
  /** What PostgreSQL has confirmed: what viewers are shown. */
  private confirmedState: S;
  /** What every decision starts from: the room once every step in flight commits. */
  private decidedState: S;
  /** Steps in flight, oldest first. */
  private readonly steps: Step<S, W, R>[] = [];
  private settledWaiters: (() => void)[] = [];
  /** Statements confirmed, and statements sent (the next statement's position). */
  private committedStatements: number;
  private sentStatements: number;
  /** A recent commit's duration (ms, moving average): what the gathering window is a fraction of. */
  private commitMs = 0;

  constructor(
    state: S,
    private readonly deps: CommitPipelineDeps<W, R>,
  ) {
    this.confirmedState = this.decidedState = state;
    this.committedStatements = this.sentStatements = deps.committedStatements;
  }

  get confirmed(): S {
    return this.confirmedState;
  }

  get state(): S {
    return this.decidedState;
  }

  /** Steps in flight. */
  get inFlight(): number {
    return this.steps.length;
  }

  get statementsInFlight(): number {
    return this.sentStatements - this.committedStatements;
  }

  /** What the rules made of a commit's results (afterCommit) holds at once: it is both states. */
  confirmFollowUp(state: S): void {
    this.confirmedState = this.decidedState = state;
  }

  /**
   * A decision is taken: the room's state becomes the one it leaves, and its statements leave now,
   * behind any still in flight (their order is kept on the way to PostgreSQL). It is confirmed
   * once they and every step before it have committed; if one before it fails, it is refused.
   */
  take(decision: Decision<S, W, R>): void {
    const { writes, late } = decision;
    const statements = writes.length + (late ? 1 : 0);
    let committing: Promise<Committed<W, R>[]>;
    if (statements === 0) {
      committing = Promise.resolve([]);
    } else if (decision.timeoutMs <= 0) {
      committing = Promise.reject(new StoreUnavailableError('no time left in the command budget'));
    } else {
      const { store, roomId, fence } = this.deps;
      let seq = this.sentStatements;
      const recorded = late ? store.recordLateDeadline({ roomId, seq: seq++, fence }, late.due, late.at, decision.timeoutMs) : undefined;
      const results = writes.length ? store.commit(writes, { roomId, seq, fence }, decision.timeoutMs) : Promise.resolve([] as R[]);
      this.sentStatements += statements;
      committing = Promise.all([recorded, results]).then(([, r]) => writes.map((write, i) => ({ write, result: r[i] })));
    }
    const step: Step<S, W, R> = {
      statements: decision.timeoutMs <= 0 ? 0 : statements,
      after: decision.after,
      barrier: writes.some((w) => this.deps.needsResult(w)),
      sentAt: this.deps.scheduler.now(),
      confirm: decision.confirm,
      refuse: decision.refuse,
    };
    this.steps.push(step);
    this.decidedState = decision.after;
    committing.then(
      (committed) => ((step.result = { ok: true, committed }), this.settle()),
      (error) => ((step.result = { ok: false, error }), this.settle()),
    );
    this.deps.changed();
  }

  /** Resolves the next time steps settle. */
  settledOnce(): Promise<void> {
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Before the mailbox hands over its next batch: at once when nothing is in flight; behind a
   * step whose result the rules need, or a full pipeline, once that has settled; otherwise after
   * a short gathering window, so that commands arriving milliseconds apart share a statement.
   */
  readyForNextBatch(): Promise<void> | undefined {
    const last = this.steps.at(-1);
    if (!last) return undefined;
    if (last.barrier || this.steps.length >= (this.deps.depth ?? PIPELINE_DEPTH)) return this.settledOnce().then(() => this.readyForNextBatch());
    const fraction = this.steps.length >= 2 ? BUSY_GATHER_FRACTION : GATHER_FRACTION;
    const { scheduler } = this.deps;
    const wait = Math.min(MAX_GATHER_MS, this.commitMs * fraction) - (scheduler.now() - last.sentAt);
    if (wait <= 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = scheduler.setTimer(resolve, wait);
      this.settledOnce().then(() => (this.steps.length === 0 ? (scheduler.clearTimer(timer), resolve()) : undefined));
    });
  }

  /** Confirms or refuses, in order, the steps at the head whose statements have answered. */
  private settle(): void {
    while (this.steps[0]?.result) {
      const step = this.steps.shift()!;
      const result = step.result!;
      if (result.ok) {
        this.committedStatements += step.statements;
        this.confirmedState = step.after;
        if (step.statements > 0) this.commitMs = this.commitMs * 0.8 + (this.deps.scheduler.now() - step.sentAt) * 0.2;
        step.confirm(result.committed);
        continue;
      }
      // Nothing decided after a failed statement is confirmed: every step behind it is refused
      // (its statements cannot apply: they extend a position the database never reached), and
      // the room is again what the database has.
      const behind = this.steps.splice(0);
      this.decidedState = this.confirmedState;
      this.sentStatements = this.committedStatements;
      step.refuse(result.error, false);
      for (const b of behind) b.refuse(new StoreUnavailableError('a statement before it failed'), true);
      if (result.error instanceof RoomOutOfOrderError) this.deps.outOfOrder();
      else this.deps.changed();
    }
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }
}
