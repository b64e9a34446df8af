import { RoomErrorCode, RoomException } from '@app/protocol';
import { Clock } from './clock';
import { Deadline } from './deadline';
import { Scheduler, TimerHandle } from './scheduler';

/**
 * A room's phase. A live room takes commands. A draining room finishes what it holds and takes
 * nothing new. A disposed room is gone.
 */
export type Lifecycle = 'live' | 'draining' | 'disposed';

/** How much later the room tries again a timed change that could not be committed, or a write to resume held clocks. */
const RETRY_AFTER_FAILURE_MS = 1000;

export interface RoomLifecycleDeps {
  readonly scheduler: Scheduler;
  readonly clock: Clock;
  /** Called when the room's deadline rang, with the moment it was due. */
  readonly onDeadline: (at: number) => void;
  /**
   * How long the room may go unwatched before it leaves memory. It is undefined while the room may
   * not leave (it is watched, or a clock that matters runs).
   */
  readonly idleAfterMs: () => number | undefined;
  /** Called when the idle timer rang. The room leaves memory if it is still idle. */
  readonly onIdle: () => void;
}

/**
 * Where a room is in its life, and the timers it owns: its deadline, the idle timer that
 * passivates it, and the retry of a timed change that failed (or of a write while its clocks are
 * held). All of them are cleared once, when the room ends. What is legal at any time follows from
 * `phase` alone.
 */
export class RoomLifecycle {
  private current: Lifecycle = 'live';
  private readonly deadline: Deadline;
  private idleTimer?: TimerHandle;
  private retryTimer?: TimerHandle;
  private drained?: Promise<void>;

  constructor(private readonly deps: RoomLifecycleDeps) {
    this.deadline = new Deadline(deps.scheduler, () => deps.clock.now(), deps.onDeadline);
  }

  get phase(): Lifecycle {
    return this.current;
  }

  /** Why the room takes no command now (the server drains, or the room is gone or over), or undefined when it takes them. */
  refusal(isOver: () => boolean): RoomException | undefined {
    if (this.current === 'draining')
      return new RoomException(RoomErrorCode.ShuttingDown, 'the server is shutting down; retry after reconnecting');
    if (this.current === 'disposed' || isOver()) return new RoomException(RoomErrorCode.RoomClosed, 'the room is closed');
    return undefined;
  }

  /**
   * Arms the deadline for `at`, or clears it when `at` is undefined. It does nothing while a timed
   * change waits for its retry, because the retry takes the deadline. If it were armed again, a
   * deadline already due would ring at once, fail again, and ring again, hundreds of times a
   * second for as long as PostgreSQL is away.
   */
  setDeadline(at: number | undefined): void {
    if (this.retryTimer) return;
    this.deadline.set(at);
  }

  /** Starts the idle timer, unless one already runs, the room is not live, or the room may not leave memory now. */
  scheduleIdle(): void {
    if (this.current !== 'live' || this.idleTimer) return;
    const afterMs = this.deps.idleAfterMs();
    if (afterMs === undefined) return;
    const timer = () => {
      this.idleTimer = undefined;
      this.deps.onIdle();
    };
    // An idle room never keeps the process alive on its own.
    this.idleTimer = this.deps.scheduler.setTimer(timer, afterMs, { unref: true });
  }

  cancelIdle(): void {
    this.deps.scheduler.clearTimer(this.idleTimer);
    this.idleTimer = undefined;
  }

  /**
   * Called when a timed change failed. It turns the deadline off and runs `again` a little later.
   * If it is asked more than once, only the last `again` runs.
   */
  retryLater(again: () => void): void {
    this.deadline.clear();
    this.deps.scheduler.clearTimer(this.retryTimer);
    this.retryTimer = this.deps.scheduler.setTimer(() => {
      this.retryTimer = undefined;
      again();
    }, RETRY_AFTER_FAILURE_MS);
  }

  /** Drops the retry, which is not needed any more because the room's clocks resumed. The deadline may be armed again. */
  cancelRetry(): void {
    this.deps.scheduler.clearTimer(this.retryTimer);
    this.retryTimer = undefined;
  }

  /**
   * Stops taking new commands, waits for `idle`, then calls `end`. It returns the same promise
   * however often it is called.
   */
  drain(idle: () => Promise<void>, end: () => void): Promise<void> {
    if (this.current === 'disposed') return Promise.resolve();
    this.current = 'draining';
    return (this.drained ??= idle().then(end));
  }

  /** Ends the room's life and stops its timers as it leaves memory. Returns true the first time only. */
  end(): boolean {
    if (this.current === 'disposed') return false;
    this.current = 'disposed';
    this.deadline.clear();
    this.cancelIdle();
    this.deps.scheduler.clearTimer(this.retryTimer);
    return true;
  }
}
