/** How often the watch checks, while something waits for an answer. */
const TICK_MS = 100;
/**
 * A tick counts for at most this many ticks' worth of quiet. A tick that comes much later than it
 * was due means this process was not running (it was stopped, or starved of CPU). PostgreSQL's
 * answers may be waiting unread in the socket, so that time is not counted as PostgreSQL's silence.
 */
const MOST_PER_TICK = 1.5;

/**
 * Says when PostgreSQL has been silent on one connection for `silenceMs` while something waited
 * for its answer, counting only the time this process was awake to hear it. The decision is taken
 * after the event loop's I/O phase (setImmediate), so that bytes which arrived while the process
 * was stopped are read, and heard, before the decision.
 */
export class SilenceWatch {
  private quietMs = 0;
  private lastTick = 0;
  private timer?: NodeJS.Timeout;
  private deciding = false;

  constructor(
    private readonly silenceMs: number,
    /** Whether anything still waits for PostgreSQL. The watch rests when nothing does. */
    private readonly waiting: () => boolean,
    private readonly onSilence: (quietMs: number) => void,
  ) {}

  /** Records that PostgreSQL said something, so the quiet starts again. */
  heard(): void {
    this.quietMs = 0;
    this.lastTick = performance.now();
  }

  /** Starts the watch because something now waits for an answer. It does nothing while the watch already runs. */
  start(): void {
    if (this.timer) return;
    this.heard();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // The watch never keeps the process alive on its own.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (!this.waiting()) return this.stop();
    const now = performance.now();
    this.quietMs += Math.min(now - this.lastTick, TICK_MS * MOST_PER_TICK);
    this.lastTick = now;
    if (this.quietMs < this.silenceMs || this.deciding) return;
    // Decide only once the poll phase has read whatever the socket holds, because an answer read there resets the quiet.
    this.deciding = true;
    setImmediate(() => {
      this.deciding = false;
      if (!this.timer) return;
      if (!this.waiting()) return this.stop();
      if (this.quietMs >= this.silenceMs) {
        this.stop();
        this.onSilence(this.quietMs);
      }
    });
  }
}
