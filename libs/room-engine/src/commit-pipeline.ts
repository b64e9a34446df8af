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
 * While one of the room's statements is in flight, the next batch gathers commands for at most
 * this fraction of a recent commit's time before it follows. That way votes and answers that
 * arrive milliseconds apart share a statement, and none of them waits more than a tenth of a round
 * trip for it. A command that arrives while nothing is in flight never waits.
 */
const GATHER_FRACTION = 0.1;
/**
 * With two or more steps already in flight, the room is busy (a big room's answers, say). Many
 * commands then arrive per round trip, so gathering for longer saves more statements than the
 * wait costs. A fifth of a round trip keeps a burst's slowest answers within 1.35 round trips
 * (PROTOCOL.md's budget for a burst). The gathering, the server's own work and the client's hop
 * share the 0.35 beyond the one round trip that every command pays. A quarter left the slowest
 * answers at 1.33 to 1.35 round trips on a quiet machine.
 */
const BUSY_GATHER_FRACTION = 0.2;
/** The gathering window never lasts longer than this, however far away the database is. */
const MAX_GATHER_MS = 20;
/** The most steps in flight at once, unless the deps say otherwise. Further waiting commands gather in the mailbox. */
const PIPELINE_DEPTH = 8;

/**
 * A decision the room takes: what it journals, the state it leaves, and whom it tells once it
 * commits (or fails to).
 */
export interface Decision<S> {
  /** The inputs the decision took that a replay needs, in order. */
  readonly inputs: readonly JournalInput[];
  /**
   * Set when the inputs must be committed before anyone hears of them (a command, a late
   * deadline...). Otherwise they ride with the room's next statement.
   */
  readonly durable: boolean;
  /** Set when the state the decision leaves is at a boundary of the game. The statement then carries a snapshot of it. */
  readonly boundary?: boolean;
  readonly finished?: FinishedGame;
  /** Set when the room is over, to the reason why. */
  readonly closed?: string;
  /**
   * The replies of the commands the decision accepted. A snapshot taken at or after this decision
   * must keep them for a resend.
   */
  readonly acks: readonly SeatReply[];
  readonly after: S;
  /** When the decision was taken (epoch ms). A snapshot records this moment. */
  readonly at: number;
  /** What is left of the budget of the oldest command behind the decision. At 0 or below, nothing is sent. */
  readonly timeoutMs: number;
  readonly confirm: () => void;
  /** `behindFailure` is true when a step before this one failed, not this step's own statement. */
  readonly refuse: (error: unknown, behindFailure: boolean) => void;
}

/**
 * A decision whose statement is on its way. It is confirmed (its replies and events go out) once
 * its statement commits and every step before it has been confirmed, so steps are confirmed in the
 * order they were taken.
 */
interface Step<S> {
  /** How many statements the step sent: 0 or 1. */
  readonly statements: number;
  /** The room's state once this step commits. */
  readonly after: S;
  readonly acks: readonly SeatReply[];
  /** Inputs of earlier steps that ride along with this step's statement and are journaled with it. */
  readonly carried: readonly JournalInput[];
  readonly sentAt: number;
  /**
   * When the step was decided, by the room's clock. If its statement cannot be recorded, the
   * room's clocks stop at this moment.
   */
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
  /** The most steps in flight at once (1 means nothing is pipelined). */
  readonly depth?: number;
  /** How many of the room's statements PostgreSQL has applied. The next statement goes after them. */
  readonly committedStatements: number;
  /** What a snapshot keeps of a state (GameRules.snapshotOf). */
  readonly snapshotOf: (state: S) => unknown;
  /**
   * The replies a snapshot must keep for resends once these acknowledged replies join the confirmed
   * ones. This is the window the reply memory will hold then.
   */
  readonly owedReplies: (acks: readonly SeatReply[]) => readonly SeatReply[];
  readonly scheduler: Scheduler;
  /**
   * Called when a step was taken, or when the room went back to what the database has. The room
   * then resets its deadline and idle timer.
   */
  readonly changed: () => void;
  /**
   * Called when the room must leave memory and load again from what the database has. That happens
   * when its statement was refused because the database holds another history of the room or
   * another lease, or because the step held something that cannot be stored (a retry would fail
   * the same way).
   */
  readonly letGo: (why: string) => void;
  /**
   * Called when something a settled step called threw (a reply, the events, the room's timers: a
   * bug). All the steps were settled regardless, but the room should not go on from a publication
   * that is half done.
   */
  readonly faulted: (error: unknown) => void;
  /**
   * Called when a statement could not be recorded because the database is unavailable, with the
   * moment its step was decided (clock-hold.ts).
   */
  readonly unavailable?: (decidedAt: number) => void;
}

/**
 * The room's commits. Each decision becomes a step whose statements leave at once, behind those
 * still in flight, and steps are confirmed strictly in the order they were taken. A failed
 * statement refuses every step behind it, because those steps extend a position the database never
 * reached, and it takes the room back to what the database has. The pipeline also says when the
 * next batch may be decided (the gathering window), and it keeps track of the statements'
 * positions and of a recent commit's time.
 */
export class CommitPipeline<S> {
  /** The state PostgreSQL has confirmed. Viewers are shown this one. */
  private confirmedState: S;
  /** The state every decision starts from: the room as it will be once every step in flight commits. */
  private decidedState: S;
  /** Steps in flight, oldest first. */
  private readonly steps: Step<S>[] = [];
  /** Inputs that were decided (and confirmed in order) but that no statement has carried yet. The next statement carries them. */
  private unjournaled: JournalInput[] = [];
  private settledWaiters: (() => void)[] = [];
  /** The count of statements confirmed, and of statements sent (which is the next statement's position). */
  private committedStatements: number;
  private sentStatements: number;
  /** A recent commit's duration in ms, as a moving average. The gathering window is a fraction of it. */
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

  /** How many steps are in flight. */
  get inFlight(): number {
    return this.steps.length;
  }

  get statementsInFlight(): number {
    return this.sentStatements - this.committedStatements;
  }

  /**
   * Takes a decision. The room's state becomes the state the decision leaves, and its statements
   * leave now, behind any still in flight (their order is kept on the way to PostgreSQL). The
   * decision is confirmed once its statements and every step before it have committed. If a step
   * before it fails, it is refused. Returns how many statements it sent: 1, or 0 when it needed
   * none (or had no time left for one).
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
      // The step will be refused, and settle puts back the inputs it would have carried.
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

  /**
   * Every reply a snapshot taken now must keep: the confirmed ones, then those of the steps in
   * flight and of this one. The snapshot commits only if those steps do.
   */
  private owedReplies(acks: readonly SeatReply[]): readonly SeatReply[] {
    return this.deps.owedReplies([...this.steps.flatMap((s) => s.acks), ...acks]);
  }

  /** Resolves the next time steps settle. */
  settledOnce(): Promise<void> {
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /**
   * Says when the mailbox may hand over its next batch. That is at once when nothing is in flight.
   * Behind a full pipeline, it is once a step has settled. Otherwise it is after a short gathering
   * window, so that commands arriving milliseconds apart share a statement. (While the room's
   * writes fail, the clock hold asks first: room-actor.ts's `beforeBatch`.)
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
   * Confirms or refuses, in order, the steps at the head whose statements have answered. It runs in
   * a promise's callback, so every call it makes outside the pipeline is shielded. A throw there is
   * then the room's fault (reported to `faulted` once the steps are settled), never an unhandled
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
      // Nothing decided after a failed statement may be confirmed. Every step behind it is refused,
      // because its statements cannot apply: they extend a position the database never reached.
      // The room goes back to what the database has.
      const behind = this.steps.splice(0);
      this.decidedState = this.confirmedState;
      this.sentStatements = this.committedStatements;
      // The inputs the failed step carried were decided before it, so they stand, and the next
      // statement carries them again. Whatever was decided after it is undone along with it.
      this.unjournaled = [...step.carried];
      // Report the outage before the refusals, so that the refusals see the room's clocks held.
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

/**
 * Whether the database could not record a statement (it refused, or stayed silent past the
 * budget), as opposed to holding another history of the room.
 */
function isUnavailable(error: unknown): boolean {
  return error instanceof StoreUnavailableError && !(error instanceof RoomOutOfOrderError);
}
