import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { installedBinaries, PostgresBinaries } from '../src/embedded/postgres-binaries';
import { startPostgres } from '../src/embedded/postgres-cluster';
import { canReach, postgresUser } from '../src/embedded/postgres-user';
import { startEmbeddedPostgres } from '../src/embedded-postgres';

/**
 * Issue 8, item 7: as root, a checkout in a private folder (mktemp -d, /root: 0700) failed with
 * `spawn .../initdb EACCES`, because PostgreSQL runs as the `postgres` user. Here the binaries and
 * DATA_DIR sit in such a folder. Not as root the same test runs: there is nothing to work around.
 */
describe('the embedded PostgreSQL from a private folder', () => {
  const root = process.getuid?.() === 0;
  const made: string[] = [];
  let checkout: string;
  let binaries: PostgresBinaries;
  let cacheRoot: string;
  let clusterRoot: string;

  function folder(mode: number): string {
    const dir = mkdtempSync(join(tmpdir(), 'embedded-pg-'));
    chmodSync(dir, mode);
    made.push(dir);
    return dir;
  }

  async function query(url: string, sql: string): Promise<any[]> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(() => {
    checkout = folder(0o700);
    const installed = installedBinaries();
    // A checkout of its own inside the private folder, as a clone there would have.
    cpSync(installed.dir, join(checkout, 'native'), { recursive: true, verbatimSymlinks: true });
    binaries = {
      ...installed,
      dir: join(checkout, 'native'),
      initdb: join(checkout, 'native/bin/initdb'),
      postgres: join(checkout, 'native/bin/postgres'),
    };
    cacheRoot = join(folder(0o755), 'cache');
    clusterRoot = join(folder(0o755), 'clusters');
  });

  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('is a folder the postgres user cannot enter, when root', () => {
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    expect(canReach(postgresUser(), join(checkout, 'native', 'bin'))).toBe(!root);
  });

  it('starts, keeps its data across a restart, and leaves the private folder as it was', async () => {
    const above = statSync(tmpdir()).mode;
    const dataDir = join(checkout, 'data');
    const logs: string[] = [];
    const first = await startEmbeddedPostgres(dataDir, (m) => logs.push(m), { binaries, cacheRoot, clusterRoot });
    try {
      expect(await query(first.url, 'SELECT current_database() AS db')).toEqual([{ db: 'game' }]);
      await query(first.url, `CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')`);
    } finally {
      await first.stop();
    }
    expect(logs.some((m) => m.startsWith('initialising an embedded PostgreSQL'))).toBe(true);
    // As root: binaries run from the root-owned cache, the cluster lives under the cluster root.
    expect(logs.some((m) => m.includes(`the postgres user cannot reach ${join(dataDir, 'pg')}`))).toBe(root);
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(!root);
    expect(existsSync(join(cacheRoot, `embedded-postgres-${binaries.version}-${process.platform}-${process.arch}`, '.complete'))).toBe(
      root,
    );

    const again: string[] = [];
    const second = await startEmbeddedPostgres(dataDir, (m) => again.push(m), { binaries, cacheRoot, clusterRoot });
    try {
      expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
    } finally {
      await second.stop();
    }
    expect(again.some((m) => m.startsWith('initialising'))).toBe(false);
    expect(statSync(checkout).mode & 0o777).toBe(0o700);
    expect(statSync(tmpdir()).mode).toBe(above);
  });

  it('removes a fresh cluster on stop, wherever it had to live', async () => {
    const before = existsSync(clusterRoot) ? readdirSync(clusterRoot) : [];
    const pg = await startPostgres({ dir: join(checkout, 'scratch', 'pg'), fresh: true, binaries, cacheRoot, clusterRoot });
    expect(pg.relocated).toBe(root);
    expect(await query(pg.url('postgres'), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await pg.stop();
    expect(existsSync(pg.dir)).toBe(false);
    expect(existsSync(clusterRoot) ? readdirSync(clusterRoot) : []).toEqual(before);
  });

  it('says in one line what to do when this installation has no embedded PostgreSQL', () => {
    const missing = () => {
      throw Object.assign(new Error('Cannot find module'), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => installedBinaries(missing)).toThrow(
      /^DATABASE_URL is not set and this installation has no embedded PostgreSQL \(@embedded-postgres\/[a-z0-9]+-[a-z0-9]+ is not installed\): set DATABASE_URL/,
    );
  });
});
