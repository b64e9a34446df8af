import { FinishedGame } from './game-rules';
import {
  JournalInput,
  JournalStep,
  RoomOutOfOrderError,
  RoomStore,
  SeatReply,
  StoreUnavailableError,
  UnstorableStepError,
} from './room-store';
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
 * arrive many per round trip, so gathering longer saves more statements for the wait. A fifth of a
 * round trip keeps a burst's slowest answers within 1.35 round trips (PROTOCOL.md's budget for a
 * burst): the gathering, the server's own work and the client's hop share the 0.35 past the one
 * round trip every command pays. A quarter left them at 1.33 to 1.35 on a quiet machine.
 */
const BUSY_GATHER_FRACTION = 0.2;
/** ...and never longer than this, whatever the database's distance. */
const MAX_GATHER_MS = 20;
/** Steps in flight at most, unless the deps say otherwise: more waiting commands then gather in the mailbox. */
const PIPELINE_DEPTH = 8;

/** A decision the room takes: what it journals, the state it leaves, and who hears of it once it commits (or does not). */
export interface Decision<S> {
  /** The inputs it took that a replay needs, in order. */
  readonly inputs: readonly JournalInput[];
  /** They must be committed before anyone hears of them (a command, a late deadline...); otherwise they ride with the room's next statement. */
  readonly durable: boolean;
  /** The state it leaves is at a boundary of the game: the statement carries a snapshot of it. */
  readonly boundary?: boolean;
  readonly finished?: FinishedGame;
  /** The room is over, for this reason. */
  readonly closed?: string;
  /** The replies of the commands it accepted: a snapshot taken at or after it owes them to a resend. */
  readonly acks: readonly SeatReply[];
  readonly after: S;
  /** When it was taken (epoch ms): a snapshot's moment. */
  readonly at: number;
  /** What is left of the budget of the oldest command behind it; at 0 or below nothing is sent. */
  readonly timeoutMs: number;
  readonly confirm: () => void;
  /** `behindFailure`: it was refused because a step before it failed, not for its own statement. */
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

/**
 * A decision whose statement is on its way: it is confirmed (replies, events) when it commits
 * and every step before it was confirmed, in the order the steps were taken.
 */
interface Step<S> {
  /** 0 or 1. */
  readonly statements: number;
  /** The room's state once this step commits. */
  readonly after: S;
  readonly acks: readonly SeatReply[];
  /** Inputs of earlier steps that were journaled with this one's statement (they ride along). */
  readonly carried: readonly JournalInput[];
  readonly sentAt: number;
  /** When it was decided (the room's clock): where the clocks stop if its statement cannot be recorded. */
  readonly at: number;
  result?: { readonly ok: true } | { readonly ok: false; readonly error: unknown };
  readonly confirm: () => void;
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

export interface CommitPipelineDeps<S> {
  readonly store: RoomStore;
  readonly roomId: string;
  /** The game's kind, which a finished game is recorded under. */
  readonly game: string;
  /** The fencing number of this process's lease on the room, carried by every statement. */
  readonly fence: number;
  /** Steps in flight at most (1: none pipelined). */
  readonly depth?: number;
  /** The room's statements PostgreSQL has applied: where its next one goes. */
  readonly committedStatements: number;
  /** What a snapshot keeps of a state (GameRules.snapshotOf). */
  readonly snapshotOf: (state: S) => unknown;
  /** What a snapshot owes to resends once these acknowledged replies join the confirmed ones (the reply memory's window then). */
  readonly owedReplies: (acks: readonly SeatReply[]) => readonly SeatReply[];
  readonly scheduler: Scheduler;
  /** A step was taken, or the room went back to what the database has: its deadline and idle timer follow. */
  readonly changed: () => void;
  /**
   * The room must leave memory and load again from what the database has: its statement was
   * refused because the database holds another history of it, or another lease, or because the
   * step held what cannot be stored (retrying it would fail the same way).
   */
  readonly letGo: (why: string) => void;
  /**
   * What a settled step called threw (a reply, the events, the room's timers: a bug): the steps
   * were all settled regardless, and the room should not go on from a publication half done.
   */
  readonly faulted: (error: unknown) => void;
  /** A statement could not be recorded because the database is unavailable: when its step was decided (clock-hold.ts). */
  readonly unavailable?: (decidedAt: number) => void;
}

/**
 * The room's commits: each decision is a step whose statements leave at once, behind those still
 * in flight, and steps are confirmed strictly in the order they were taken. A failed statement
 * refuses every step behind it (they extend a position the database never reached) and takes the
 * room back to what the database has. It also says when the next batch may be decided (the
 * gathering window) and keeps the statements' positions and a recent commit's time.
 */
export class CommitPipeline<S> {
  /** What PostgreSQL has confirmed: what viewers are shown. */
  private confirmedState: S;
  /** What every decision starts from: the room once every step in flight commits. */
  private decidedState: S;
  /** Steps in flight, oldest first. */
  private readonly steps: Step<S>[] = [];
  /** Inputs decided (and confirmed in order) that no statement has carried yet: the next one does. */
  private unjournaled: JournalInput[] = [];
  private settledWaiters: (() => void)[] = [];
  /** Statements confirmed, and statements sent (the next statement's position). */
  private committedStatements: number;
  private sentStatements: number;
  /** A recent commit's duration (ms, moving average): what the gathering window is a fraction of. */
  private commitMs = 0;

  constructor(
    state: S,
    private readonly deps: CommitPipelineDeps<S>,
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

  /**
   * A decision is taken: the room's state becomes the one it leaves, and its statements leave now,
   * behind any still in flight (their order is kept on the way to PostgreSQL). It is confirmed
   * once they and every step before it have committed; if one before it fails, it is refused.
   * Returns the statements it sent: 1, or 0 when it needed none (or had no time left for one).
   */
  take(decision: Decision<S>): number {
    const needsStatement = decision.durable || decision.boundary || decision.finished !== undefined || decision.closed !== undefined;
    let committing: Promise<void>;
    let carried: JournalInput[] = [];
    let statements = 0;
    if (!needsStatement) {
      this.unjournaled.push(...decision.inputs);
      committing = Promise.resolve();
    } else if (decision.timeoutMs <= 0) {
      // Refused, and what it would have carried goes back (see settle).
      carried = this.unjournaled.splice(0);
      committing = Promise.reject(new StoreUnavailableError('no time left in the command budget'));
    } else {
      carried = this.unjournaled.splice(0);
      const { store, roomId, fence, game } = this.deps;
      const step: JournalStep = {
        inputs: [...carried, ...decision.inputs],
        ...(decision.boundary
          ? {
              snapshot: {
                at: decision.at,
                snapshot: { state: this.deps.snapshotOf(decision.after), replies: this.owedReplies(decision.acks) },
              },
            }
          : {}),
        ...(decision.finished ? { finished: { ...decision.finished, game } } : {}),
        ...(decision.closed !== undefined ? { closed: decision.closed } : {}),
      };
      committing = store.append(step, { roomId, seq: this.sentStatements, fence }, decision.timeoutMs);
      statements = 1;
      this.sentStatements += 1;
    }
    const step: Step<S> = {
      statements,
      after: decision.after,
      acks: decision.acks,
      carried,
      sentAt: this.deps.scheduler.now(),
      at: decision.at,
      confirm: decision.confirm,
      refuse: decision.refuse,
    };
    this.steps.push(step);
    this.decidedState = decision.after;
    committing.then(
      () => ((step.result = { ok: true }), this.settle()),
      (error) => ((step.result = { ok: false, error }), this.settle()),
    );
    this.deps.changed();
    return statements;
  }

  /** Every reply a snapshot taken now owes: the confirmed ones, then those of the steps in flight and this one (the snapshot commits only if they do). */
  private owedReplies(acks: readonly SeatReply[]): readonly SeatReply[] {
    return this.deps.owedReplies([...this.steps.flatMap((s) => s.acks), ...acks]);
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
    if (this.steps.length >= (this.deps.depth ?? PIPELINE_DEPTH)) return this.settledOnce().then(() => this.readyForNextBatch());
    const fraction = this.steps.length >= 2 ? BUSY_GATHER_FRACTION : GATHER_FRACTION;
    const { scheduler } = this.deps;
    const wait = Math.min(MAX_GATHER_MS, this.commitMs * fraction) - (scheduler.now() - last.sentAt);
    if (wait <= 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = scheduler.setTimer(resolve, wait);
      // settledOnce never rejects (it only waits for the next settle), so nothing is left unhandled.
      void this.settledOnce().then(() => (this.steps.length === 0 ? (scheduler.clearTimer(timer), resolve()) : undefined));
    });
  }

  /**
   * Confirms or refuses, in order, the steps at the head whose statements have answered. It runs
   * in a promise's callback: what it calls outside the pipeline is shielded, so that a throw there
   * is the room's fault (told to `faulted` once the steps are settled), never an unhandled
   * rejection, which would end the process and every other room in it.
   */
  private settle(): void {
    const faults: unknown[] = [];
    const shield = (call: () => void) => {
      try {
        call();
      } catch (err) {
        faults.push(err);
      }
    };
    while (this.steps[0]?.result) {
      const step = this.steps.shift()!;
      const result = step.result!;
      if (result.ok) {
        this.committedStatements += step.statements;
        this.confirmedState = step.after;
        if (step.statements > 0) this.commitMs = this.commitMs * 0.8 + (this.deps.scheduler.now() - step.sentAt) * 0.2;
        shield(() => step.confirm());
        continue;
      }
      // Nothing decided after a failed statement is confirmed: every step behind it is refused
      // (its statements cannot apply: they extend a position the database never reached), and
      // the room is again what the database has.
      const behind = this.steps.splice(0);
      this.decidedState = this.confirmedState;
      this.sentStatements = this.committedStatements;
      // What it carried was decided before it and stands: the next statement carries it again.
      // What was decided after it is undone with it.
      this.unjournaled = [...step.carried];
      // Told before the refusals, so that they see the room's clocks held.
      if (step.statements > 0 && isUnavailable(result.error)) shield(() => this.deps.unavailable?.(step.at));
      shield(() => step.refuse(result.error, false));
      for (const b of behind) shield(() => b.refuse(new StoreUnavailableError('a statement before it failed'), true));
      shield(() => {
        if (result.error instanceof RoomOutOfOrderError) this.deps.letGo('the database holds another history of it');
        else if (result.error instanceof UnstorableStepError) this.deps.letGo(`its step could not be stored (${result.error.message})`);
        else this.deps.changed();
      });
    }
    for (const resolve of this.settledWaiters.splice(0)) resolve();
    if (faults.length > 0) this.deps.faulted(faults[0]);
  }
}

/** The database could not record a statement (refused, or silent past its budget): not another history of the room. */
function isUnavailable(error: unknown): boolean {
  return error instanceof StoreUnavailableError && !(error instanceof RoomOutOfOrderError);
}
