import { ROOM_PAUSED, ROOM_RESUMED } from '@app/protocol';
import { Decision } from './commit-pipeline';
import { RoomEvent } from './game-rules';
import { JournalInput } from './room-store';
import { Scheduler } from './scheduler';

/**
 * The longest the room's own attempt to write waits for PostgreSQL. Commands that arrive meanwhile
 * wait for the attempt, because a command pipelined behind an attempt that never gets an answer
 * would fail with it. So the attempt must leave those commands most of their budget. An attempt
 * that runs out of time is simply made again later.
 */
export const TRY_BUDGET_MS = 250;

export interface ClockHoldDeps<S> {
  /** Returns the state with every clock moved on by `ms` (the rules' shiftClocks, called through the driver). */
  readonly shift: (state: S, ms: number) => S;
  /** The room's next deadline as PostgreSQL has it. After a failed write, the clocks stop no later than this. */
  readonly nextDeadline: () => number | undefined;
  /**
   * The room's next deadline as the room decided it, steps in flight included. When a write is in
   * doubt, the clocks stop no later than this.
   */
  readonly decidedDeadline: () => number | undefined;
  /** The room's clock (epoch ms). */
  readonly now: () => number;
  /** The scheduler that watches the budget of a statement in flight. */
  readonly scheduler: Scheduler;
  /** Called when the clocks stopped at `since`, to tell the room's sockets. */
  readonly paused: (since: number) => void;
  /** Called when a write that carried the hold has committed and the clocks moved on by `ms`, to tell the sockets. */
  readonly resumed: (ms: number) => void;
  /**
   * Called when nothing else may try a write soon. The room then tries one by itself a little later
   * (it posts a `resume` letter).
   */
  readonly tryLater: () => void;
}

/**
 * Holds the room's clocks while its writes fail (PROTOCOL.md section 14), so that a round or a
 * turn does not run out while nobody can play it.
 *
 * When one of the room's statements cannot be recorded because the database is unavailable, the
 * clocks stop. No deadline rings, and whatever the room decides meanwhile (a presence change, a
 * command it tries to record) is decided at the moment the clocks stopped. Every write the room
 * tries while the clocks are held carries the hold: after its own inputs it adds a `clock_held`
 * input (when the clocks stopped, and for how long), and the state it leaves has every clock moved
 * on by that long. Once such a write commits, the room has resumed. Until one does, the room tries
 * one by itself every so often. A replay takes the same input at the same place (RuleDriver), so
 * the replay agrees with the live room.
 *
 * A statement that is still unanswered when its budget is spent is in doubt. The database is
 * silent, and the store settles the statement once it can ask PostgreSQL, however long that takes.
 * Nothing the room decides meanwhile can be recorded, so the clocks stop then too. If the statement
 * is settled as not recorded, the hold starts where a failed write would start it. If it is
 * settled as recorded, the clocks stay held until the room's next write.
 */
export class ClockHold<S> {
  /** When the clocks stopped (by the room's clock, epoch ms). It is unset while they run. */
  private stoppedAt?: number;
  /**
   * Set while a write that carries the hold is in flight. What the room decides now is pipelined
   * behind that write, on the moved clocks.
   */
  private resuming = false;
  /**
   * The moment the latest hold ended. Nothing decided after the hold gets an earlier moment, because
   * the time in between did not run.
   */
  private floor = -Infinity;
  /** Set while the room's own attempt is in flight. It settles when the attempt does. */
  private trying?: Promise<void>;

  constructor(private readonly deps: ClockHoldDeps<S>) {}

  /** Whether the clocks are stopped with no write in flight that would restart them. */
  get held(): boolean {
    return this.stoppedAt !== undefined && !this.resuming;
  }

  /** When the clocks stopped, until they resume. A write that would resume them may already be in flight. */
  get since(): number | undefined {
    return this.stoppedAt;
  }

  /**
   * What the next batch waits for while the room's own attempt is in flight. The batch is decided
   * once the attempt has answered, whether the clocks stay held or resume, rather than pipelined
   * behind a statement that may never be answered (a silent database).
   */
  untilTried(): Promise<void> | undefined {
    return this.trying;
  }

  /**
   * The moment at which the room decides what came at `at`. While the clocks are held, that is no
   * later than when they stopped. Afterwards, it is no earlier than when they resumed.
   */
  moment(at: number): number {
    return this.held ? Math.min(at, this.stoppedAt!) : Math.max(at, this.floor);
  }

  /**
   * The database could not record a step the room decided at `decidedAt`, so the clocks stop.
   * They stop at the earliest of three moments: `decidedAt`; the room's next deadline, if it fell
   * before that (a replay takes every deadline that falls before the hold, so the live room must
   * stop before any deadline it has not recorded); and the moment they already stopped at, if they
   * had. Every step decided after the failed one is undone too, so the clocks may stop earlier
   * than an earlier doubt said; the sockets are then told the new moment.
   */
  writeFailed(decidedAt: number): void {
    this.resuming = false;
    const due = this.deps.nextDeadline();
    this.stopAt(Math.min(decidedAt, due ?? Infinity, this.stoppedAt ?? Infinity));
    this.deps.tryLater();
  }

  /** The room's own attempt is due, but a statement is still in flight (in doubt), so it tries again later. */
  tryAgainLater(): void {
    this.deps.tryLater();
  }

  /**
   * Hands `decision` to the pipeline through `take`, which returns how many statements it sent, in
   * the form the room must take it at `now`: while the clocks are held, the decision carries the
   * hold. Once a statement is out, it is watched. If it is still unanswered when its budget is
   * spent, it is in doubt. The check waits until this turn of the event loop has read what
   * arrived, so that a process that stalled does not mistake its own stall for the database's.
   */
  take(decision: Decision<S>, now: number, take: (decision: Decision<S>) => number, force = false): number {
    const carried = this.carry(decision, now, force);
    const { scheduler } = this.deps;
    let watch: ReturnType<Scheduler['setTimer']> | undefined;
    let answered = false;
    const answer = () => {
      answered = true;
      scheduler.clearTimer(watch);
    };
    const statements = take({
      ...carried,
      confirm: () => (answer(), carried.confirm()),
      refuse: (error, behindFailure) => (answer(), carried.refuse(error, behindFailure)),
    });
    if (statements > 0 && !answered)
      watch = scheduler.setTimer(() => scheduler.afterTurn(() => answered || this.inDoubt()), carried.timeoutMs);
    return statements;
  }

  /**
   * Handles a statement in doubt. Running clocks stop now, or at the next deadline the room decided
   * if its timer has not rung yet (the deadlines before the hold's moment are taken, those after it
   * are not). Clocks that are already held, or a write that would resume them, are left as they are.
   */
  private inDoubt(): void {
    if (this.stoppedAt !== undefined) return;
    const due = this.deps.decidedDeadline();
    this.stopAt(Math.min(this.deps.now(), due ?? Infinity));
    this.deps.tryLater();
  }

  /** Stops the clocks at `at`, and tells the sockets when that is news. */
  private stopAt(at: number): void {
    if (this.stoppedAt === at) return;
    this.stoppedAt = at;
    this.deps.paused(at);
  }

  /**
   * Returns the decision as the room takes it at `now`. While the clocks are held, a decision that
   * sends a statement carries the hold (with `force`, which the room's own attempt uses, any
   * decision does). Such a decision ends its inputs with the hold's input, it is durable, the state
   * it leaves has its clocks moved on, and once it commits the room has resumed. Any other decision
   * is taken as it is.
   */
  private carry(decision: Decision<S>, now: number, force: boolean): Decision<S> {
    const since = this.stoppedAt;
    if (since === undefined || this.resuming || !(force || writes(decision))) return decision;
    const ms = Math.max(0, now - since);
    const held: JournalInput = { kind: 'clock_held', at: since, body: { ms } };
    this.resuming = true;
    this.floor = since + ms;
    let tried = () => undefined as void;
    if (force) this.trying = new Promise((resolve) => (tried = resolve));
    const settled = () => {
      this.resuming = false;
      this.trying = undefined;
      tried();
    };
    return {
      ...decision,
      inputs: [...decision.inputs, held],
      durable: true,
      after: this.deps.shift(decision.after, ms),
      confirm: () => {
        this.stoppedAt = undefined;
        settled();
        decision.confirm();
        this.deps.resumed(ms);
      },
      refuse: (error, behindFailure) => {
        // The clocks stay held from the same moment, because the time since then has not run either.
        settled();
        decision.refuse(error, behindFailure);
        this.deps.tryLater();
      },
    };
  }
}

/**
 * Whether the decision sends a statement of its own: a command, a proposal, a boundary, an ending
 * does. A presence change does not: it is taken at once and rides with the next statement, as always.
 */
function writes(decision: Decision<unknown>): boolean {
  return decision.durable || decision.boundary === true || decision.finished !== undefined || decision.closed !== undefined;
}

/** What the sockets are told when the clocks stop. */
export function pausedEvent(since: number): RoomEvent {
  return { type: ROOM_PAUSED, data: { reason: 'storage', since } };
}

/** What the sockets are told when the clocks move on again. A fresh state frame follows it. */
export function resumedEvent(heldMs: number): RoomEvent {
  return { type: ROOM_RESUMED, data: { heldMs } };
}
