import { ClientConfig } from 'pg';
import { DataSource, DataSourceOptions, MigrationInterface } from 'typeorm';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './database';
import { instrumentedClientClass } from './instrumented-client';
import { migrate } from './schema-migrations';
import { StatementMeter } from './statement-meter';

export interface DatabaseOptions {
  readonly url: string;
  /**
   * PostgreSQL's own address, for everything that needs a session of its own: the migrations and
   * their lock, the commit lanes (pipelined, with named prepared statements), the settling of lost
   * answers (which ends a server process by its pid), and LISTEN. When unset, it is `url`. When it
   * differs from `url`, `url` is taken to be a transaction pooler's (PgBouncer, a managed
   * service's pooler). Statements sent there are then unnamed, and no setting travels in the
   * start-up of its connections.
   */
  readonly directUrl?: string;
  /** The pool's size. */
  readonly poolMax?: number;
  /** Whether to run pending migrations at start. The server does; tests migrate a template once. */
  readonly migrate?: boolean;
  readonly applicationName?: string;
  /** The migrations to run, in order. The app hands them over, because this library knows no schema. */
  readonly migrations?: readonly (new () => MigrationInterface)[];
  /**
   * PostgreSQL's own limit on a statement, which also bounds a lock wait. The statement runner's
   * limit is set by each caller.
   */
  readonly statementTimeoutMs?: number;
  /** Hears when this process waits for another process's migrations. */
  readonly log?: (msg: string) => void;
}

/** Where a data source's connections go (see DatabaseOptions.directUrl). */
export interface DatabaseRoutes {
  /** Whether the pool's URL is a transaction pooler's. There are then no named prepared statements and no start-up settings. */
  readonly pooled: boolean;
  /** How a connection that needs a session of its own connects: straight to PostgreSQL. */
  readonly direct: ClientConfig;
}

/** A TypeORM data source that knows where its session-bound connections go (Database reads it). */
export class RoutedDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    readonly routes: DatabaseRoutes,
  ) {
    super(options);
  }
}

/**
 * A TypeORM data source over pg, whose every connection counts its round trips. Migrations are
 * TypeORM migrations with plain SQL inside, and they run first, over the direct URL
 * (schema-migrations.ts). The hot path runs named SQL through `Database`.
 */
export async function openDataSource(options: DatabaseOptions, meter: StatementMeter): Promise<RoutedDataSource> {
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const directUrl = options.directUrl ?? options.url;
  const pooled = directUrl !== options.url;
  const applicationName = options.applicationName ?? 'game-server';
  const Client = instrumentedClientClass(meter);
  if (options.migrate ?? true)
    await migrate({
      url: directUrl,
      migrations: options.migrations ?? [],
      applicationName: `${applicationName}-migrations`,
      log: options.log,
      Client,
    });
  const connection = {
    // A new connection that cannot be made in time counts as an outage, not a wait.
    connectionTimeoutMillis: timeoutMs,
    idleTimeoutMillis: 30_000,
    // Let the kernel find dead links (a NAT that forgot us), rather than a query that hangs.
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
  };
  // PostgreSQL's own backstop behind the runner's limit, given in the connection's start-up. It
  // costs nothing, but a transaction pooler refuses a connection that carries it, so pooled
  // connections go without it.
  const backstop = { statement_timeout: timeoutMs };
  const dataSource = new RoutedDataSource(
    {
      type: 'postgres',
      url: options.url,
      migrations: [...(options.migrations ?? [])],
      migrationsRun: false,
      migrationsTransactionMode: 'each',
      installExtensions: false,
      applicationName,
      poolSize: options.poolMax ?? 10,
      connectTimeoutMS: timeoutMs,
      extra: { Client, ...connection, ...(pooled ? {} : backstop) },
    },
    { pooled, direct: { connectionString: directUrl, application_name: applicationName, ...connection, ...backstop } },
  );
  await dataSource.initialize();
  return dataSource;
}
