/** How long a socket may be quiet before it is pinged, and how long it then has to answer (GatewayOptions). */
export interface LivenessOptions {
  readonly pingIdleMs: number;
  readonly pongTimeoutMs: number;
}

/** What the sweep should do with one socket now: ping it, close it for silence, or nothing. */
export type LivenessVerdict = 'ping' | 'silent' | undefined;

/**
 * Tracks whether one socket's client is still there. Anything heard from the client proves that
 * it is: a frame, a pong, or a ping of its own. After `pingIdleMs` without a word, the socket is
 * pinged (with a WebSocket ping, which every client answers by itself). If nothing is heard within
 * `pongTimeoutMs` of that ping, the socket is silent. This class keeps two numbers and no timer:
 * one sweep per gateway asks every socket in turn. Times are monotonic milliseconds
 * (`performance.now()`), so a change of the wall clock affects nothing.
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
   * `stalledMs` is how long this process itself stood still since the last check (so the sweep
   * ran that late), and the answer window does not run during that time. A pong that arrived
   * during a stall waits unread, and timers run before sockets are read, so without this a stalled
   * process would close the sockets that did answer.
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
 * How often the gateway's one sweep runs: every tenth of the shorter setting. A socket is then
 * pinged, and closed for silence, at most a tenth of the setting late. With the defaults (20 s and
 * 30 s) the sweep runs every 2 s, and a peer that vanished is closed within 54 s of its last word.
 */
export function sweepEveryMs(options: LivenessOptions): number {
  return Math.max(10, Math.min(options.pingIdleMs, options.pongTimeoutMs) / 10);
}

/**
 * The sweep's own clock. It measures how long the process stood still since the previous sweep,
 * beyond a sweep's normal jitter (up to one more interval). A sweep on time reports 0.
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
