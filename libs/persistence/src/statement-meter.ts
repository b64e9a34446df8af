/** What the persistence layer reports about its traffic to PostgreSQL. */
export interface StatementObserver {
  /** One round trip to PostgreSQL, labelled with the named statement that caused it. */
  roundTrip?(statement: string): void;
  /** A named statement finished, ok or not. Its duration includes the pool checkout. */
  statement?(statement: string, seconds: number, ok: boolean): void;
  /** A pool checkout took this long. */
  acquire?(seconds: number): void;
  /** A room's statement committed this long after it was handed to the ordered path (its wait plus its round trip). */
  committed?(seconds: number): void;
  /** A room's statement whose answer was lost was settled by reading the database, with what the read found. */
  settled?(outcome: SettledOutcome): void;
}

/** What a statement whose answer was lost turned out to be. `unsettled` means the server closed before it could tell. */
export type SettledOutcome = 'recorded' | 'not_recorded' | 'elsewhere' | 'unsettled';

/**
 * Fans the persistence layer's measurements out to whoever listens (metrics, the admin API,
 * tests that count round trips).
 */
export class StatementMeter {
  private readonly observers = new Set<StatementObserver>();

  observe(observer: StatementObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  roundTrip(statement: string): void {
    for (const o of this.observers) o.roundTrip?.(statement);
  }

  statement(statement: string, seconds: number, ok: boolean): void {
    for (const o of this.observers) o.statement?.(statement, seconds, ok);
  }

  acquire(seconds: number): void {
    for (const o of this.observers) o.acquire?.(seconds);
  }

  committed(seconds: number): void {
    for (const o of this.observers) o.committed?.(seconds);
  }

  settled(outcome: SettledOutcome): void {
    for (const o of this.observers) o.settled?.(outcome);
  }

  /** Records the round trips made while the capture is open: `const log = meter.capture(); ...; log.stop()`. */
  capture(): RoundTripLog {
    const names: string[] = [];
    const stop = this.observe({ roundTrip: (s) => names.push(s) });
    return { names, stop: () => (stop(), names) };
  }
}

export interface RoundTripLog {
  readonly names: readonly string[];
  stop(): readonly string[];
}
