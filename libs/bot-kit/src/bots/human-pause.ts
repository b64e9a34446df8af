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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
