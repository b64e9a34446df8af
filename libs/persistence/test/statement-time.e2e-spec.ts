import { readFile } from 'node:fs';
import { DataSource } from 'typeorm';
import { Database, openDataSource, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';

/** Keeps this process's event loop busy for `ms`. It is a real stall, like the one a starved or stopped process has. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * A statement's time limit is a timer in this process. While the process is stopped or starved,
 * time passes and PostgreSQL may answer, but nothing reads the answer. When the process runs
 * again, both the timer and the answer are due. The answer must win: it counts as an answer, not
 * as a timeout. (In issue 31's starve run, a freeze during the heartbeat's statement made the
 * heartbeat report PostgreSQL unreachable, and 80 commands were refused.)
 */
describe('a statement caught by a stall of this process', () => {
  let dataSource: DataSource;
  let db: Database;

  beforeAll(async () => {
    const meter = new StatementMeter();
    dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 2, migrations: MIGRATIONS }, meter);
    db = new Database(dataSource, meter, 900, 1);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  it('is answered when PostgreSQL answered in time, though its time ran out before the answer was read', async () => {
    await db.run('warm', 'SELECT 1');
    const answer = db.run<{ slept: boolean }>('nap', 'SELECT true AS slept FROM pg_sleep(0.2)', [], 400);
    // The statement leaves (a checkout, a write), and PostgreSQL answers 200 ms later, while this
    // process is busy for far longer than the limit. The stall is in an I/O callback, as a stopped
    // process's is, so when it ends, due timers run before sockets are read again.
    await new Promise((r) => setTimeout(r, 30));
    await new Promise<void>((done) => readFile(__filename, () => (stall(1500), done())));
    await expect(answer).resolves.toEqual([{ slept: true }]);
  });

  it('still runs out for a statement PostgreSQL has not answered', async () => {
    await expect(db.run('long nap', 'SELECT pg_sleep(2)', [], 300)).rejects.toMatchObject({ name: 'DatabaseUnavailableError' });
  });
});
