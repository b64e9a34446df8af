import { ROOM_PAUSED, ROOM_RESUMED } from '@app/protocol';
import { Decision } from './commit-pipeline';
import { RoomEvent } from './game-rules';
import { JournalInput } from './room-store';
import { Scheduler } from './scheduler';

/**
 * The room's own try waits this long at most for PostgreSQL: commands that come meanwhile wait
 * for it (a command pipelined behind a try that never gets an answer would fail with it), so it
 * must leave them most of their budget. A try that runs out is simply made again later.
 */
export const TRY_BUDGET_MS = 250;

export interface ClockHoldDeps<S> {
  /** The state with every clock moved on by `ms` (the rules' shiftClocks, through the driver). */
  readonly shift: (state: S, ms: number) => S;
  /** The next deadline of the room as PostgreSQL has it: after a failed write, the clocks stop no later than that. */
  readonly nextDeadline: () => number | undefined;
  /** The next deadline of the room as it decided it (steps in flight included): when a write is in doubt, likewise. */
  readonly decidedDeadline: () => number | undefined;
  /** The room's clock (epoch ms). */
  readonly now: () => number;
  /** Where the budget of a statement in flight is watched. */
  readonly scheduler: Scheduler;
  /** The clocks stopped at `since`: the room's sockets are told. */
  readonly paused: (since: number) => void;
  /** A write that carried the hold committed: the clocks moved on by `ms`, and the sockets are told. */
  readonly resumed: (ms: number) => void;
  /** Nothing else may try a write soon: the room tries one by itself a little later (a `resume` letter). */
  readonly tryLater: () => void;
}

/**
 * The room's clocks while its writes fail (PROTOCOL.md section 14): a round or a turn does not
 * run out while nobody can play it.
 *
 * When a statement of the room cannot be recorded because the database is unavailable, the
 * clocks stop: no deadline rings, and whatever the room decides meanwhile (a presence change, a
 * command it tries to record) is decided at the moment they stopped. Every write the room tries
 * while they hold carries the hold: after its own inputs, a `clock_held` input (when the clocks
 * stopped, and for how long), and the state it leaves has every clock moved on by that long. Once
 * such a write commits, the room has resumed; until one does, the room tries one by itself every
 * so often. A replay takes the same input at the same place (RuleDriver), so it agrees.
 *
 * A statement still unanswered when its budget is spent is in doubt (a silent database: the store
 * settles it once it can ask PostgreSQL, however long that takes), and nothing the room decides
 * meanwhile can be recorded: the clocks stop then too. Settled as not recorded, the hold starts
 * where a failed write starts it; as recorded, the clocks hold until the room's next write.
 */
export class ClockHold<S> {
  /** When the clocks stopped (the room's clock, epoch ms); none while they run. */
  private stoppedAt?: number;
  /** A write that carries the hold is in flight: what the room decides now is pipelined behind it, on moved clocks. */
  private resuming = false;
  /** The moment the latest hold ended: nothing decided after it is earlier (the time in between did not run). */
  private floor = -Infinity;
  /** The room's own try is in flight: settles with it. */
  private trying?: Promise<void>;

  constructor(private readonly deps: ClockHoldDeps<S>) {}

  /** The clocks are stopped, and no write that would restart them is in flight. */
  get held(): boolean {
    return this.stoppedAt !== undefined && !this.resuming;
  }

  /** When the clocks stopped, while they have not resumed (a write that would resume them may be in flight). */
  get since(): number | undefined {
    return this.stoppedAt;
  }

  /**
   * While the room's own try is in flight, what the next batch waits for: it is decided once the
   * try has answered, held or resumed, rather than pipelined behind a statement that may never be
   * answered (a silent database).
   */
  untilTried(): Promise<void> | undefined {
    return this.trying;
  }

  /**
   * The moment the room decides what came at `at`: while held, no later than when the clocks
   * stopped; afterwards, no earlier than when they resumed.
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

  /** The room's own try is due, but a statement is still in flight (in doubt): it is tried later. */
  tryAgainLater(): void {
    this.deps.tryLater();
  }

  /**
   * Takes `decision` into the pipeline (`take`, which answers the statements it sent) as the room
   * must at `now`: carrying the hold while the clocks hold, and, once a statement is out, watched:
   * unanswered when its budget is spent (and after what this turn of the event loop has read, so
   * that a process that stalled does not take its own stall for the database's), it is in doubt.
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
   * A statement is in doubt. Running clocks stop now, or at the next deadline the room decided if
   * its timer has not rung yet (the deadlines before the hold's moment are taken, those after it
   * are not). Clocks that hold already, or a write that would resume them, are left as they are.
   */
  private inDoubt(): void {
    if (this.stoppedAt !== undefined) return;
    const due = this.deps.decidedDeadline();
    this.stopAt(Math.min(this.deps.now(), due ?? Infinity));
    this.deps.tryLater();
  }

  /** The clocks stopped at `at`: the sockets are told, when that is news. */
  private stopAt(at: number): void {
    if (this.stoppedAt === at) return;
    this.stoppedAt = at;
    this.deps.paused(at);
  }

  /**
   * The decision as the room takes it at `now`. While the clocks hold, one that sends a statement
   * (or any, with `force`: the room's own try) carries the hold: its inputs end with the hold's,
   * it is durable, the state it leaves has its clocks moved on, and once it commits the room has
   * resumed. Otherwise it is taken as it is.
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
        // Still held, from the same moment: the time since then has not run either.
        settled();
        decision.refuse(error, behindFailure);
        this.deps.tryLater();
      },
    };
  }
}

/**
 * The decision sends a statement of its own: a command, a proposal, a boundary, an ending. A
 * presence change does not: it is taken at once and rides with the next statement, as always.
 */
function writes(decision: Decision<unknown>): boolean {
  return decision.durable || decision.boundary === true || decision.finished !== undefined || decision.closed !== undefined;
}

/** What the sockets are told when the clocks stop. */
export function pausedEvent(since: number): RoomEvent {
  return { type: ROOM_PAUSED, data: { reason: 'storage', since } };
}

/** What the sockets are told when they move on (a fresh state frame follows). */
export function resumedEvent(heldMs: number): RoomEvent {
  return { type: ROOM_RESUMED, data: { heldMs } };
}
