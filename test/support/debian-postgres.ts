import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { RunningPostgres, startPostgres } from '../../apps/game-server/src/embedded/postgres-cluster';

/**
 * The oldest PostgreSQL major version the server supports, as Debian packages it (`postgresql-15`,
 * which the test command installs with apt when it is missing). The embedded PostgreSQL that every
 * other test runs on is the newest.
 */
export const OLDEST_MAJOR = 15;
export const DEBIAN_POSTGRES_BIN = `/usr/lib/postgresql/${OLDEST_MAJOR}/bin`;

/** Fails, saying what to do, when Debian's PostgreSQL is missing (as for a test started outside `npm test`). */
export function requireDebianPostgres(): void {
  if (!existsSync(join(DEBIAN_POSTGRES_BIN, 'postgres'))) {
    throw new Error(
      `${DEBIAN_POSTGRES_BIN}/postgres is missing: \`apt-get install -y postgresql-${OLDEST_MAJOR}\` (npm test installs it when run as root)`,
    );
  }
}

/**
 * Starts Debian's PostgreSQL 15 on a free port of 127.0.0.1, with durability off like the tests'
 * embedded one. It runs in a fresh cluster of its own, or on the cluster in `dir` (a base backup's
 * copy). Either cluster is removed when it stops. As root it runs as the `postgres` user, as
 * PostgreSQL requires, and its binaries run where Debian put them.
 */
export async function startDebianPostgres(dir?: string): Promise<RunningPostgres> {
  requireDebianPostgres();
  let cluster = dir;
  if (!cluster) {
    const parent = mkdtempSync(join(tmpdir(), `game-test-pg${OLDEST_MAJOR}-`));
    // This folder is our own, so we let the postgres user (when we run as root) enter it.
    chmodSync(parent, 0o755);
    cluster = join(parent, 'data');
  }
  const bin = (name: string) => join(DEBIAN_POSTGRES_BIN, name);
  return startPostgres({
    dir: cluster,
    fresh: true,
    systemBinaries: {
      dir: join(DEBIAN_POSTGRES_BIN, '..'),
      version: String(OLDEST_MAJOR),
      initdb: bin('initdb'),
      postgres: bin('postgres'),
    },
    // There is no Unix socket. Every client (pg_dump included) comes over TCP, so no shared folder is needed.
    flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'unix_socket_directories='],
  });
}

/** Makes an empty database on `pg` and returns its URL. */
export async function createDatabase(pg: RunningPostgres, name: string): Promise<string> {
  const admin = new Client({ connectionString: pg.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return pg.url(name);
}

/** The server's major version, as PostgreSQL reports it. */
export async function serverMajor(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return Math.floor(Number((await client.query('SHOW server_version_num')).rows[0].server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}
