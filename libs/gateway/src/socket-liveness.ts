/** How long a socket may be quiet before it is pinged, and how long it then has to answer (GatewayOptions). */
export interface LivenessOptions {
  readonly pingIdleMs: number;
  readonly pongTimeoutMs: number;
}

/** What the sweep does with one socket now: ping it, close it for silence, or nothing. */
export type LivenessVerdict = 'ping' | 'silent' | undefined;

/**
 * Whether one socket's client is still there. Anything heard from it proves it is: a frame, a
 * pong, a ping of its own. After `pingIdleMs` without a word it is pinged (a WebSocket ping, which
 * every client answers by itself); if nothing is heard within `pongTimeoutMs` of that ping, it is
 * silent. It keeps two numbers and no timer: one sweep per gateway asks every socket in turn.
 * Times are monotonic milliseconds (`performance.now()`), so a change of the wall clock moves nothing.
 *
 *     const verdict = liveness.check(performance.now(), options, 0); // 'ping': send one and call pinged()
 */
export class SocketLiveness {
  private heardAt: number;
  /** When the ping that is still unanswered went out. */
  private pingedAt: number | undefined;

  constructor(now: number) {
    this.heardAt = now;
  }

  heard(now: number): void {
    this.heardAt = now;
    this.pingedAt = undefined;
  }

  pinged(now: number): void {
    this.pingedAt = now;
  }

  /**
   * `stalledMs` is how long this process itself stood still since the last check (the sweep ran
   * that late): the window does not run meanwhile. A pong that arrived during a stall waits
   * unread, and timers run before sockets are read, so a stalled process would otherwise close
   * the sockets that did answer.
   */
  check(now: number, options: LivenessOptions, stalledMs: number): LivenessVerdict {
    if (this.pingedAt !== undefined) {
      this.pingedAt += stalledMs;
      return now - this.pingedAt >= options.pongTimeoutMs ? 'silent' : undefined;
    }
    return now - this.heardAt >= options.pingIdleMs ? 'ping' : undefined;
  }
}

/**
 * How often the gateway's one sweep runs: a tenth of the shorter setting, so that a socket is
 * pinged, and closed for silence, at most a tenth of a setting late each. With the defaults
 * (20 s and 30 s) that is every 2 s, and a peer that vanished is closed within 54 s of its last word.
 */
export function sweepEveryMs(options: LivenessOptions): number {
  return Math.max(10, Math.min(options.pingIdleMs, options.pongTimeoutMs) / 10);
}

/**
 * The sweep's own clock: how long the process stood still since the previous sweep, beyond a
 * sweep's normal jitter (up to one more interval). A sweep on time reports 0.
 */
export class SweepClock {
  private last: number;

  constructor(
    private readonly everyMs: number,
    now: number,
  ) {
    this.last = now;
  }

  stalledSince(now: number): number {
    const stalled = Math.max(0, now - this.last - 2 * this.everyMs);
    this.last = now;
    return stalled;
  }
}
