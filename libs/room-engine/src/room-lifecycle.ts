import { RoomErrorCode, RoomException } from '@app/protocol';
import { Clock } from './clock';
import { Deadline } from './deadline';
import { Scheduler, TimerHandle } from './scheduler';

/** live: takes commands. draining: finishes what it holds, takes nothing new. disposed: gone. */
export type Lifecycle = 'live' | 'draining' | 'disposed';

/** A timed change that could not be committed, or a write to resume held clocks, is tried again this much later. */
const RETRY_AFTER_FAILURE_MS = 1000;

export interface RoomLifecycleDeps {
  readonly scheduler: Scheduler;
  readonly clock: Clock;
  /** The room's deadline rang: the moment it was due. */
  readonly onDeadline: (at: number) => void;
  /** How long the room may go unwatched before it leaves memory; undefined while it may not (watched, or a clock that matters runs). */
  readonly idleAfterMs: () => number | undefined;
  /** The idle timer rang: the room leaves memory if it is still idle. */
  readonly onIdle: () => void;
}

/**
 * Where a room is in its life, and the timers it owns: its deadline, the idle timer that
 * passivates it, the retry of a timed change that failed (or of a write while its clocks hold).
 * All are cleared when it ends, once: what is legal when follows from `phase` alone.
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

  /** Why the room takes no command now, if it does not: the server drains, or the room is gone or over. */
  refusal(isOver: () => boolean): RoomException | undefined {
    if (this.current === 'draining')
      return new RoomException(RoomErrorCode.ShuttingDown, 'the server is shutting down; retry after reconnecting');
    if (this.current === 'disposed' || isOver()) return new RoomException(RoomErrorCode.RoomClosed, 'the room is closed');
    return undefined;
  }

  /**
   * Arms the deadline for `at` (none: cleared). Not while a timed change waits for its retry: the
   * retry takes it. Armed again, a deadline already due would ring at once, fail again, and ring
   * again, hundreds of times a second for as long as PostgreSQL is away.
   */
  setDeadline(at: number | undefined): void {
    if (this.retryTimer) return;
    this.deadline.set(at);
  }

  /** Starts the idle timer, unless one runs, the room is not live, or it may not leave memory now. */
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

  /** A timed change failed: the deadline is off, and `again` runs a little later (the last one asked for). */
  retryLater(again: () => void): void {
    this.deadline.clear();
    this.deps.scheduler.clearTimer(this.retryTimer);
    this.retryTimer = this.deps.scheduler.setTimer(() => {
      this.retryTimer = undefined;
      again();
    }, RETRY_AFTER_FAILURE_MS);
  }

  /** The retry is not needed any more (the room's clocks resumed): the deadline may be armed again. */
  cancelRetry(): void {
    this.deps.scheduler.clearTimer(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** Takes no new command, waits for `idle`, then `end`s; the same promise however often it is asked. */
  drain(idle: () => Promise<void>, end: () => void): Promise<void> {
    if (this.current === 'disposed') return Promise.resolve();
    this.current = 'draining';
    return (this.drained ??= idle().then(end));
  }

  /** The room leaves memory: its timers stop. True the first time only. */
  end(): boolean {
    if (this.current === 'disposed') return false;
    this.current = 'disposed';
    this.deadline.clear();
    this.cancelIdle();
    this.deps.scheduler.clearTimer(this.retryTimer);
    return true;
  }
}
