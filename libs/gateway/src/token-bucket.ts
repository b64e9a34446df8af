/**
 * A token bucket: it holds at most `burst` tokens and gains `perSecond` of them each second; each
 * thing counted takes one. Time is the caller's, in milliseconds of any steady clock, so that the
 * same bucket serves a socket's commands (their arrival times) and the server's instance budgets.
 *
 *     const bucket = new TokenBucket(20, 40, performance.now());
 *     if (!bucket.take(performance.now())) refuse(bucket.secondsUntilToken(performance.now()));
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    now: number,
  ) {
    // A bucket starts full: nothing has been spent yet.
    this.tokens = burst;
    this.last = now;
  }

  /** Takes one token and says true; says false, and takes nothing, when none is left. */
  take(now: number): boolean {
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** How long until the bucket holds a whole token again, in seconds (0 when it holds one now). */
  secondsUntilToken(now: number): number {
    this.refill(now);
    return this.tokens >= 1 ? 0 : (1 - this.tokens) / this.perSecond;
  }

  private refill(now: number): void {
    // A clock read out of order (two callers, one late) adds nothing rather than taking tokens away.
    const elapsedSeconds = Math.max(0, now - this.last) / 1000;
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.burst, this.tokens + elapsedSeconds * this.perSecond);
  }
}
