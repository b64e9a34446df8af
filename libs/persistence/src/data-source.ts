import { DataSource, MigrationInterface } from 'typeorm';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './database';
import { instrumentedClientClass } from './instrumented-client';
import { StatementMeter } from './statement-meter';

export interface DatabaseOptions {
  readonly url: string;
  /** Pool size. */
  readonly poolMax?: number;
  /** Run pending migrations at start (the server does; tests migrate a template once). */
  readonly migrate?: boolean;
  readonly applicationName?: string;
  /** The migrations to run, in order (the app hands them over; this library knows no schema). */
  readonly migrations?: readonly (new () => MigrationInterface)[];
  /** PostgreSQL's own limit on a statement (it also bounds a lock wait); the runner's limit is the caller's. */
  readonly statementTimeoutMs?: number;
}

/**
 * A TypeORM data source over pg whose every connection counts its round trips. Migrations are
 * TypeORM migrations with plain SQL inside; the hot path runs named SQL through `Database`.
 */
export async function openDataSource(options: DatabaseOptions, meter: StatementMeter): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    migrations: [...(options.migrations ?? [])],
    migrationsRun: options.migrate ?? true,
    migrationsTransactionMode: 'each',
    installExtensions: false,
    applicationName: options.applicationName ?? 'game-server',
    poolSize: options.poolMax ?? 10,
    // A new connection that cannot be made in time counts as an outage, not a wait.
    connectTimeoutMS: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    extra: {
      Client: instrumentedClientClass(meter),
      idleTimeoutMillis: 30_000,
      // Dead links (a NAT that forgot us) are found by the kernel, not by a query that hangs.
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      // Set per connection at its start; the server's own backstop behind the runner's limit.
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    },
  });
  await dataSource.initialize();
  return dataSource;
}
