import { IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { FastestWait, OverloadSignal, SignalLevels, SustainedLevel } from './overload-gate';

/** How often the signals are read. Each reading is the worst of its slice. */
export const SLICE_MS = 100;
/** How many readings are kept. The window is SLICES × SLICE_MS, one second. */
export const SLICES = 10;
/** How many slices the fastest commit is taken over: a minute. */
const FLOOR_SLICES = 600;
/**
 * The period of the event-loop monitor's own timer. The monitor records the time between its
 * timer's runs, and that time includes this period.
 */
const RESOLUTION_MS = 10;

/**
 * The three overload signals, measured where they happen and read once per slice, so that a request
 * pays nothing for them. The monitor and this reader run on their own timers, and a commit or a
 * checkout that reports its wait costs one comparison.
 *
 * - Event-loop delay: the worst delay the event loop monitor saw in the slice, or the lateness of
 *   this reader's own timer, whichever is more. (After a stall the two timers run in either order,
 *   and taking both makes sure the slice shows the stall.)
 * - Commit wait: the longest a room's statement took from being handed to the ordered path to its
 *   answer, among those answered in the slice, less the fastest of the last minute (FastestWait).
 *   So the level is the wait that load added, and the same mark serves a database 1 ms away and one
 *   60 ms away.
 * - Pool wait: the longest a statement waited for a pooled connection, among checkouts answered
 *   in the slice.
 *
 * A wait counts only once it is answered. One room's statement held by a lock is that room's wait,
 * not the instance's load. A checkout or a commit that never comes (PostgreSQL away) is an outage,
 * and is answered as one (`database_unavailable`). An overloaded instance, by contrast, still
 * answers commits and checkouts in every slice, only late. A slice without any answered wait reads
 * 0.
 */
export class OverloadSignals {
  private readonly monitor: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private readonly windows: Record<OverloadSignal, SustainedLevel> = {
    event_loop_delay: new SustainedLevel(SLICES),
    commit_wait: new SustainedLevel(SLICES),
    pool_wait: new SustainedLevel(SLICES),
  };
  private worstCommitMs = 0;
  private readonly commitFloor = new FastestWait(FLOOR_SLICES);
  private worstCheckoutMs = 0;
  private timer?: NodeJS.Timeout;
  private lastRead = 0;

  /** Starts measuring. `read` runs after each slice, with the levels as they stand. */
  start(read: (levels: SignalLevels) => void): void {
    if (this.timer) return;
    this.monitor.enable();
    this.lastRead = performance.now();
    this.timer = setInterval(() => read(this.readSlice()), SLICE_MS);
    // The reader never keeps the process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.monitor.disable();
  }

  commitWaited(ms: number): void {
    if (ms > this.worstCommitMs) this.worstCommitMs = ms;
    this.commitFloor.saw(ms);
  }

  /** The fastest commit of the last minute, in milliseconds: what the commit wait is measured above. */
  commitFloorMs(): number {
    return this.commitFloor.floor();
  }

  checkoutWaited(ms: number): void {
    if (ms > this.worstCheckoutMs) this.worstCheckoutMs = ms;
  }

  /** The level each signal held through most of the last window. */
  levels(): SignalLevels {
    return {
      event_loop_delay: this.windows.event_loop_delay.level(),
      commit_wait: this.windows.commit_wait.level(),
      pool_wait: this.windows.pool_wait.level(),
    };
  }

  private readSlice(): SignalLevels {
    const now = performance.now();
    const lateness = now - this.lastRead - SLICE_MS;
    this.lastRead = now;
    // The monitor records nanoseconds between its timer's runs, and an idle loop shows the timer's
    // resolution, so the resolution is taken off.
    const monitored = this.monitor.count > 0 ? this.monitor.max / 1e6 - RESOLUTION_MS : 0;
    this.monitor.reset();
    this.windows.event_loop_delay.push(Math.max(0, lateness, monitored));
    // A slice without a commit reads 0, as before: nothing waited.
    this.windows.commit_wait.push(Math.max(0, this.worstCommitMs - this.commitFloor.floor()));
    this.commitFloor.endSlice();
    this.windows.pool_wait.push(this.worstCheckoutMs);
    this.worstCommitMs = 0;
    this.worstCheckoutMs = 0;
    return this.levels();
  }
}
