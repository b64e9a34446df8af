import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../../migrations';
import { instrumentedClientClass } from './instrumented-client';
import { StatementMeter } from './statement-meter';

export interface DatabaseOptions {
  readonly url: string;
  /** Pool size. */
  readonly poolMax?: number;
  /** Run pending migrations at start (the server does; tests migrate a template once). */
  readonly migrate?: boolean;
  readonly applicationName?: string;
}

/**
 * A TypeORM data source over pg whose every connection counts its round trips. Migrations are
 * TypeORM migrations with plain SQL inside; the hot path runs named SQL through `Database`.
 */
export async function openDataSource(options: DatabaseOptions, meter: StatementMeter): Promise<DataSource> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    migrations: MIGRATIONS,
    migrationsRun: options.migrate ?? true,
    migrationsTransactionMode: 'each',
    installExtensions: false,
    applicationName: options.applicationName ?? 'game-server',
    poolSize: options.poolMax ?? 10,
    connectTimeoutMS: 5000,
    extra: {
      Client: instrumentedClientClass(meter),
      idleTimeoutMillis: 30_000,
    },
  });
  await dataSource.initialize();
  return dataSource;
}
