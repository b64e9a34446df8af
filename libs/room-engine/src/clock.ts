/** Where rooms read the time; tests pass their own. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** When a command arrived: on the room's clock (for the game) and monotonic (for latency). */
export interface Arrival {
  /** Clock milliseconds: what scoring and deadlines compare against. */
  readonly at: number;
  /** performance.now(): what latency is measured from. */
  readonly hr: number;
}
