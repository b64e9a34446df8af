/**
 * What this instance knows of its link to PostgreSQL, from its heartbeat (one statement every
 * beat, whatever the traffic): whether the last beat got through, and since when every beat has.
 * Readiness reads it without a query of its own, and so does the lease logic.
 */
export class DatabaseLink {
  /** Since when every beat has got through (monotonic ms); undefined while the last one failed. */
  private reachableSince?: number;
  private lastOkAt = -Infinity;

  /** `beatMs`: how often the heartbeat beats; 0 when it does not beat on a timer (tests). */
  constructor(private readonly beatMs: number) {}

  /** A beat got through. True when it is the first after a failed one. */
  beatOk(now = performance.now()): boolean {
    const first = this.lastOkAt === -Infinity && !this.failed;
    const recovered = this.reachableSince === undefined && !first;
    // An instance that starts is steady at once: it has seen no outage, and the instance it
    // replaces (a kill -9, a new deploy) should hand its rooms over within a lease, not two.
    this.reachableSince ??= first ? -Infinity : now;
    this.lastOkAt = now;
    return recovered;
  }

  private failed = false;

  beatFailed(): void {
    this.failed = true;
    this.reachableSince = undefined;
  }

  /**
   * Whether PostgreSQL answered the last beat, and that beat is recent (three beats); undefined
   * when there is no beat on a timer to tell (then only a query of one's own can).
   */
  reachable(now = performance.now()): boolean | undefined {
    if (this.beatMs <= 0) return undefined;
    return this.reachableSince !== undefined && now - this.lastOkAt <= 3 * this.beatMs;
  }

  /**
   * Every beat for the last `ms` got through: this instance has seen PostgreSQL reachable for that
   * long, or has seen no failed beat since it started. One just back from an outage is not steady yet: an instance whose lease ran out meanwhile
   * may only have been cut off too, and gets a lease's time to renew it before its rooms are taken
   * from it or asked of it. Without a beat on a timer (tests) there is nothing to wait for.
   */
  steadyFor(ms: number, now = performance.now()): boolean {
    if (this.beatMs <= 0) return true;
    return this.reachableSince !== undefined && now - this.reachableSince >= ms;
  }
}
