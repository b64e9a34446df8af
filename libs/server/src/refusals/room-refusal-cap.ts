/** The window in which a room's share of the refusal record is counted: one minute. */
export const REFUSAL_WINDOW_MS = 60_000;

/**
 * How many refusals one room may add to the record per minute, counted by their arrival. A client
 * that floods one room with bad frames fills that room's share, not the process's buffer. The cap
 * lives with its room, so it holds two numbers per live room, and nothing once the room is gone.
 */
export class RoomRefusalCap {
  private windowStart = Number.NEGATIVE_INFINITY;
  private taken = 0;

  constructor(private readonly perMinute: number) {}

  /** Whether a refusal that arrived at `at` (epoch ms) may be recorded. */
  take(at: number): boolean {
    if (at >= this.windowStart + REFUSAL_WINDOW_MS || at < this.windowStart) {
      this.windowStart = at;
      this.taken = 0;
    }
    if (this.taken >= this.perMinute) return false;
    this.taken++;
    return true;
  }
}
