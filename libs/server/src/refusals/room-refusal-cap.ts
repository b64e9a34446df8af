/** One minute: the window a room's share of the refusal record is counted in. */
export const REFUSAL_WINDOW_MS = 60_000;

/**
 * How many refusals one room may add to the record per minute (by their arrival): a client that
 * floods one room with bad frames fills its room's share, not the process's buffer. It lives with
 * its room, so it holds two numbers per live room and nothing once the room is gone.
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
