// One PostgreSQL server for the whole test run, with durability off: tests make fresh databases
// from a migrated template (test/support/database.ts) instead of sharing one. It starts from the
// same code as the server's embedded database, so a checkout in any folder, as root or not, runs.
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres } from '../apps/game-server/src/embedded/postgres-cluster';

export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'game-test-pg-'));
  // Our own folder: the postgres user (as root) may enter it; nothing above it is changed.
  chmodSync(dir, 0o755);
  const pg = await startPostgres({
    dir: join(dir, 'data'),
    fresh: true,
    // pg_stat_statements counts the pages each statement reads: the heartbeat's cost is asserted with it.
    flags: [
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
      '-c',
      'shared_preload_libraries=pg_stat_statements',
    ],
    // Said only when it matters: the cluster had to live elsewhere than asked.
    log: (msg) => msg.startsWith('the postgres user') && process.stderr.write(`[postgres] ${msg}\n`),
  });
  (globalThis as { __TEST_PG__?: typeof pg }).__TEST_PG__ = pg;
  process.env.TEST_PG_URL = `postgres://postgres:postgres@127.0.0.1:${pg.port}`;
}
