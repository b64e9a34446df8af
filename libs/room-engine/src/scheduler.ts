declare const timer: unique symbol;

/** A timer that a scheduler set. Only that scheduler can clear it. */
export type TimerHandle = { readonly [timer]: true };

/**
 * Where the engine reads monotonic time and sets its timers. In production it is the event loop
 * (`systemScheduler`); in tests it is a `VirtualScheduler`, whose time moves only when the test
 * moves it. The game's own time (epoch ms, which the rules compare) comes from the room's `Clock`.
 * The scheduler measures latency, budgets and the gathering window, and it rings the room's timers.
 */
export interface Scheduler {
  /** Monotonic milliseconds (performance.now()). */
  now(): number;
  /**
   * Calls `fn` once, `ms` from now (at least 1 ms, as with Node's setTimeout). With `unref`, the
   * timer does not keep the process alive on its own (used for an idle room's passivation).
   */
  setTimer(fn: () => void, ms: number, options?: { readonly unref?: boolean }): TimerHandle;
  clearTimer(timer: TimerHandle | undefined): void;
  /**
   * Calls `fn` once this turn of the event loop is over (setImmediate), so that whatever arrives
   * during the turn is handled along with it.
   */
  afterTurn(fn: () => void): void;
}

export const systemScheduler: Scheduler = {
  now: () => performance.now(),
  setTimer: (fn, ms, options) => {
    const t = setTimeout(fn, ms);
    if (options?.unref) t.unref();
    return t as unknown as TimerHandle;
  },
  clearTimer: (t) => clearTimeout(t as unknown as NodeJS.Timeout | undefined),
  afterTurn: (fn) => void setImmediate(fn),
};
