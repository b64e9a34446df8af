import { Client, ClientConfig } from 'pg';
import { StatementMeter } from './statement-meter';

/** A pg client that reports every query it sends as one round trip, whoever sent it. */
export interface NamedClient extends Client {
  /** Set by the statement runner for the duration of one named query. */
  statementName?: string;
}

/**
 * The pool builds its connections from this class, so that nothing reaches PostgreSQL uncounted:
 * neither the runner's named statements nor TypeORM's own queries.
 */
export function instrumentedClientClass(meter: StatementMeter): new (config?: ClientConfig) => Client {
  return class InstrumentedClient extends Client {
    statementName?: string;

    constructor(config?: ClientConfig) {
      super(config);
      // A link that drops can make a client emit 'error' when no query and no pool listener is
      // there to take it, and an unheard 'error' would end the process. The query in flight, if
      // any, still fails with the error, and the pool still discards the client.
      this.on('error', () => undefined);
    }

    // pg's query() has many overloads, and counting is the same for all of them.
    override query(...args: unknown[]): any {
      meter.roundTrip(this.statementName ?? 'typeorm');
      return (Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
    }
  };
}
