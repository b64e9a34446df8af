import { Scheduler, systemScheduler } from './scheduler';

/** What the registry needs of a live room. */
export interface ManagedRoom {
  readonly code: string;
  /** Stops the room's timers, answers whatever waits, and closes sockets if asked. */
  dispose(): void;
}

/**
 * The live rooms of this process, by code. A room that is not live is activated on first use.
 * Rooms asked for in the same turn of the event loop, or while a load is in flight (after a
 * restart, or in a burst of joins), are loaded together in one call of `load`, which is one query.
 */
export class RoomRegistry<R extends ManagedRoom> {
  private readonly live = new Map<string, R>();
  private pending = new Map<
    string,
    { promise: Promise<R | undefined>; resolve: (r: R | undefined) => void; reject: (e: unknown) => void }
  >();
  private flushScheduled = false;
  private loading = false;
  /** The codes of the load in flight, and their waiters. A code asked for again shares that load. */
  private inFlight = new Map<string, { promise: Promise<R | undefined> }>();

  /**
   * `load` hands back the rooms it found. A code mapped to an Error names a room that exists but
   * cannot be live here now (another instance holds it), and its callers get that error.
   */
  constructor(
    private readonly load: (codes: string[]) => Promise<Map<string, R | Error>>,
    private readonly scheduler: Scheduler = systemScheduler,
  ) {}

  /** The live room, activated when needed, or undefined when no such room exists. */
  get(code: string): Promise<R | undefined> {
    const room = this.live.get(code);
    if (room) return Promise.resolve(room);
    const waiting = this.pending.get(code) ?? this.inFlight.get(code);
    if (waiting) return waiting.promise;
    let resolve!: (r: R | undefined) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<R | undefined>((res, rej) => ((resolve = res), (reject = rej)));
    this.pending.set(code, { promise, resolve, reject });
    this.scheduleFlush();
    return promise;
  }

  peek(code: string): R | undefined {
    return this.live.get(code);
  }

  /** Takes a room out (passivated or closed). The next `get` loads it again. */
  remove(room: R): void {
    if (this.live.get(room.code) === room) this.live.delete(room.code);
  }

  rooms(): R[] {
    return [...this.live.values()];
  }

  get size(): number {
    return this.live.size;
  }

  disposeAll(): void {
    for (const room of this.live.values()) room.dispose();
    this.live.clear();
  }

  private scheduleFlush(): void {
    // While a load is in flight, newcomers wait for it and then go together in the next one.
    if (this.flushScheduled || this.loading || this.pending.size === 0) return;
    this.flushScheduled = true;
    this.scheduler.afterTurn(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.flushScheduled = false;
    // A room may have been asked for while the previous load went on, and be live since. It is
    // not loaded again: a second load would be a second copy, and would take the room's lease
    // from the first.
    for (const [code, waiter] of batch) {
      const room = this.live.get(code);
      if (!room) continue;
      waiter.resolve(room);
      batch.delete(code);
    }
    if (batch.size === 0) return this.scheduleFlush();
    this.loading = true;
    this.inFlight = batch;
    try {
      const loaded = await this.load([...batch.keys()]);
      for (const [code, waiter] of batch) {
        // A room may have gone live meanwhile through another path. If so, keep the first copy.
        const existing = this.live.get(code);
        const found = existing ?? loaded.get(code);
        if (found instanceof Error) {
          waiter.reject(found);
          continue;
        }
        if (found && !existing) this.live.set(code, found);
        waiter.resolve(found);
      }
    } catch (err) {
      for (const waiter of batch.values()) waiter.reject(err);
    } finally {
      this.loading = false;
      this.inFlight = new Map();
      this.scheduleFlush();
    }
  }
}
