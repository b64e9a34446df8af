import { Pool, PoolClient, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { NamedClient } from './instrumented-client';
import { StatementMeter } from './statement-meter';

export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** Thrown when PostgreSQL cannot be reached or fails in a way a retry may fix. */
export class DatabaseUnavailableError extends Error {
  constructor(readonly statement: string, cause: unknown) {
    super(`database unavailable during ${statement}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * Runs named statements: one checkout, one query, one round trip. The name is the `statement`
 * label of the metrics and the name tests count. No ping before checkout, no BEGIN/COMMIT.
 */
export class Database {
  readonly pool: Pool;

  constructor(
    readonly dataSource: DataSource,
    readonly meter: StatementMeter,
  ) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
  }

  async run<T extends QueryResultRow>(statement: string, sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const started = process.hrtime.bigint();
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      this.meter.statement(statement, secondsSince(started), false);
      throw new DatabaseUnavailableError(statement, err);
    }
    this.meter.acquire(secondsSince(started));
    const named = client as unknown as NamedClient;
    named.statementName = statement;
    let broken: Error | undefined;
    let ok = false;
    try {
      const result = await client.query<T>(sql, params as unknown[]);
      ok = true;
      return result.rows;
    } catch (err) {
      if (isConnectionError(err)) {
        broken = err as Error;
        throw new DatabaseUnavailableError(statement, err);
      }
      throw err;
    } finally {
      named.statementName = undefined;
      // A connection that failed mid-query is destroyed, not handed to the next caller.
      client.release(broken);
      this.meter.statement(statement, secondsSince(started), ok);
    }
  }

  poolStats(): PoolStats {
    return {
      total: this.pool.totalCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
      max: (this.pool.options as { max?: number }).max ?? 10,
    };
  }
}

function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Errors that mean the link or the server is gone, not that the statement was wrong. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code ?? '';
  return (
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)$/.test(code) ||
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin shutdown
    code === '57P03' || // cannot connect now
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(err.message)
  );
}
