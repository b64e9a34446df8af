/**
 * Hands everything submitted in one turn of the event loop to `flush` together, and settles
 * each submitter with the outcome of that one flush. Rooms use it to share a statement: every
 * room whose batch commits in the same turn writes its answers in the same insert. Nothing
 * waits for an earlier flush, so an idle server adds no latency; a busy one, whose turns hold
 * more, batches more.
 */
export class TurnBatcher<T> {
  private pending: { items: readonly T[]; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;

  constructor(private readonly flush: (items: T[]) => Promise<void>) {}

  submit(items: readonly T[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ items, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.run());
    });
  }

  private async run(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      await this.flush(batch.flatMap((b) => b.items));
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    for (const b of batch) b.resolve();
  }
}
