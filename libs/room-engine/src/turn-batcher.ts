/**
 * Hands everything submitted in one turn of the event loop to `flush` together, and settles
 * each submitter with the outcome of that one flush. Rooms use it to share a statement: every
 * room whose batch commits in the same turn writes its answers in the same insert. Nothing
 * waits for an earlier flush, so an idle server adds no latency; a busy one, whose turns hold
 * more, batches more.
 */
export class TurnBatcher<T> {
  private pending: { items: readonly T[]; deadline: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  /** `flush` gets the time the most hurried submitter has left. */
  constructor(private readonly flush: (items: T[], timeoutMs: number) => Promise<void>) {}

  submit(items: readonly T[], timeoutMs = Infinity): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ items, deadline: performance.now() + timeoutMs, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const timeoutMs = Math.min(...batch.map((b) => b.deadline)) - performance.now();
    try {
      await this.flush(batch.flatMap((b) => b.items), timeoutMs);
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    for (const b of batch) b.resolve();
  }
}
