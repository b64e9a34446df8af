import { Client, ClientConfig } from 'pg';
import { DataSource, MigrationExecutor, MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The advisory lock a process holds while it migrates. Instances that an orchestrator starts
 * together all try to migrate: the first one runs the migrations, and the others wait for it and
 * then find nothing left to do. The number is this service's own (any bigint that no other tool
 * uses).
 */
export const MIGRATIONS_LOCK = 7_347_172_001;

export interface MigrationOptions {
  /** PostgreSQL itself, not a pooler, because the lock belongs to a session and a migration may run for minutes. */
  readonly url: string;
  readonly migrations: readonly (new () => MigrationInterface)[];
  readonly applicationName?: string;
  /** Hears when this process waits for another process's migrations. */
  readonly log?: (msg: string) => void;
  /** The pg client class to connect with. The server's class counts every round trip. */
  readonly Client?: new (config?: ClientConfig) => Client;
}

/** Where one migration stands in a database: applied, pending, or applied by a build that is not this one. */
export interface MigrationState {
  readonly name: string;
  readonly state: 'applied' | 'pending' | 'unknown';
}

/**
 * Thrown when the URL's session reaches a pooler, not PostgreSQL. Whatever needs a session of its
 * own would break there.
 */
export class NotDirectError extends Error {
  constructor(reported: number, serving: number) {
    super(
      `the direct database URL does not reach PostgreSQL itself: its connection reports server process ${reported}, ` +
        `but process ${serving} answers, so a pooler sits in between. Migrations, commit lanes, LISTEN and the settling of ` +
        `lost answers need a session of their own: give the direct URL as PostgreSQL's own address (the pooler may stay in the other URL)`,
    );
    this.name = 'NotDirectError';
  }
}

/**
 * Applies the pending migrations, one transaction each, under MIGRATIONS_LOCK and without a
 * statement timeout. A data migration of a large table may take minutes, and the commands' budget
 * does not apply to it. Returns the names of the migrations it applied, in order, or none when
 * another process applied them.
 */
export async function migrate(options: MigrationOptions): Promise<string[]> {
  return withMigrationSession(options, async (dataSource, runner) => {
    if (!(await tryLock(runner))) {
      options.log?.('another process is migrating this database; waiting for it to finish');
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATIONS_LOCK]);
    }
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      return (await executor.executePendingMigrations()).map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATIONS_LOCK]);
    }
  });
}

/**
 * Every migration this build knows, applied or pending, followed by those the database has from a
 * build that is not this one.
 */
export async function migrationStates(options: MigrationOptions): Promise<MigrationState[]> {
  return withMigrationSession(options, async (dataSource, runner) => {
    const applied = new Set((await new MigrationExecutor(dataSource, runner).getExecutedMigrations()).map((m) => m.name));
    const known = dataSource.migrations.map((m) => m.name ?? m.constructor.name);
    return [
      ...known.map((name) => ({ name, state: applied.has(name) ? ('applied' as const) : ('pending' as const) })),
      ...[...applied].filter((name) => !known.includes(name)).map((name) => ({ name, state: 'unknown' as const })),
    ];
  });
}

/** Whether MIGRATIONS_LOCK is free. If it is, this session holds it from now on. */
async function tryLock(runner: QueryRunner): Promise<boolean> {
  const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATIONS_LOCK])) as { locked: boolean }[];
  return locked;
}

/**
 * Opens one session straight to PostgreSQL, checked to be direct, with no statement timeout even
 * where the role or the database sets one. The data source over it knows the migrations.
 */
async function withMigrationSession<T>(
  options: MigrationOptions,
  body: (dataSource: DataSource, runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    migrations: [...options.migrations],
    migrationsTransactionMode: 'each',
    installExtensions: false,
    applicationName: options.applicationName ?? 'game-server-migrations',
    // One session does the work. A second one keeps a migration that asks for another connection from waiting for ever.
    poolSize: 2,
    extra: { ...(options.Client ? { Client: options.Client } : {}), keepAlive: true },
  });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SET statement_timeout = 0');
    await assertDirect(runner);
    return await body(dataSource, runner);
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}

/**
 * Checks that a session is direct. A pooler answers a connection with a process id of its own
 * making, and then hands the session's statements to whichever server process it likes, so the two
 * ids differ. Straight to PostgreSQL, they are the same process.
 */
async function assertDirect(runner: QueryRunner): Promise<void> {
  const connection = (await runner.connect()) as { processID?: number };
  const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
  if (connection.processID !== pid) throw new NotDirectError(connection.processID ?? 0, pid);
}
