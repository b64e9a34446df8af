/**
 * What this instance knows about its link to PostgreSQL, learnt from its heartbeat, which runs one
 * statement every beat whatever the traffic. It records whether the last beat got through, and
 * since when every beat has. Readiness reads it without a query of its own, and so does the lease
 * logic.
 */
export class DatabaseLink {
  /** The time (monotonic ms) since which every beat has got through. It is undefined while the last beat failed. */
  private reachableSince?: number;
  private lastOkAt = -Infinity;

  /** `beatMs` is how often the heartbeat beats, or 0 when it does not beat on a timer (as in tests). */
  constructor(private readonly beatMs: number) {}

  /** Records a beat that got through. Returns true when it is the first beat after a failed one. */
  beatOk(now = performance.now()): boolean {
    const first = this.lastOkAt === -Infinity && !this.failed;
    const recovered = this.reachableSince === undefined && !first;
    // An instance that starts is steady at once. It has seen no outage, and the instance it replaces
    // (after a kill -9 or a new deploy) should hand its rooms over within one lease, not two.
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
   * Whether PostgreSQL answered the last beat and that beat is recent (within three beats). It is
   * undefined when no beat runs on a timer to tell, and then only a query of the caller's own can.
   */
  reachable(now = performance.now()): boolean | undefined {
    if (this.beatMs <= 0) return undefined;
    return this.reachableSince !== undefined && now - this.lastOkAt <= 3 * this.beatMs;
  }

  /**
   * Whether every beat for the last `ms` got through: this instance has seen PostgreSQL reachable
   * for that long, or has seen no failed beat since it started. An instance just back from an outage
   * is not steady yet. Another instance whose lease ran out meanwhile may only have been cut off
   * too, so it gets a lease's time to renew its lease before its rooms are taken from it or asked
   * of it. Without a beat on a timer (as in tests), there is nothing to wait for.
   */
  steadyFor(ms: number, now = performance.now()): boolean {
    if (this.beatMs <= 0) return true;
    return this.reachableSince !== undefined && now - this.reachableSince >= ms;
  }
}
