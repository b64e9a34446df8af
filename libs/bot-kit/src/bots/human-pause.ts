/** How long a bot thinks before it answers: `baseMs` plus a uniform share of `spreadMs`. */
export interface HumanPause {
  readonly baseMs: number;
  readonly spreadMs: number;
}

/** The default: 300 ms plus up to 3,200 ms, like people reading four choices on a phone. */
export const HUMAN_PAUSE: HumanPause = { baseMs: 300, spreadMs: 3200 };

export function pauseMs(pause: HumanPause, random: () => number = Math.random): number {
  return pause.baseMs + random() * pause.spreadMs;
}

/**
 * Resolves after `ms`, or at once when `signal` aborts. Thousands of bots sleep on one run's
 * signal at a time, and an EventTarget checks every listener it holds on each add and remove. So
 * each signal gets only one listener, which wakes a set of sleepers.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const sleepers = signal ? sleepersOf(signal) : undefined;
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      sleepers?.delete(done);
      resolve();
    }
    sleepers?.add(done);
  });
}

const sleepersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

function sleepersOf(signal: AbortSignal): Set<() => void> {
  let sleepers = sleepersBySignal.get(signal);
  if (!sleepers) {
    const set = (sleepers = new Set());
    sleepersBySignal.set(signal, set);
    signal.addEventListener('abort', () => [...set].forEach((wake) => wake()), { once: true });
  }
  return sleepers;
}
