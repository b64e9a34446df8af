declare const timer: unique symbol;

/** A timer a scheduler set: only that scheduler can clear it. */
export type TimerHandle = { readonly [timer]: true };

/**
 * Where the engine reads monotonic time and sets its timers: the event loop in production
 * (`systemScheduler`), `VirtualScheduler` in tests, whose time moves only when the test moves it.
 * The game's own time (epoch ms, what rules compare) is the room's `Clock`; this one measures
 * latency, budgets and the gathering window, and rings the room's timers.
 */
export interface Scheduler {
  /** Monotonic milliseconds (performance.now()). */
  now(): number;
  /**
   * Calls `fn` once, `ms` from now (at least 1 ms, as Node's setTimeout). `unref`: the timer does
   * not keep the process alive on its own (an idle room's passivation).
   */
  setTimer(fn: () => void, ms: number, options?: { readonly unref?: boolean }): TimerHandle;
  clearTimer(timer: TimerHandle | undefined): void;
  /** Calls `fn` once this turn of the event loop is over (setImmediate): what arrives in it goes along. */
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
