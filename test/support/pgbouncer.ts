import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../apps/game-server/src/embedded/postgres-cluster';
import { postgresUser } from '../../apps/game-server/src/embedded/postgres-user';

/** Debian's PgBouncer (`pgbouncer`, 1.18 on bookworm). The test command installs it with apt when it is missing. */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  readonly port: number;
  /**
   * `postgres://<user>:<password>@127.0.0.1:<port>/<database>`: the same database, reached through
   * the pooler, as `postgres` unless another user is given.
   */
  url(database: string, user?: string): string;
  /** PgBouncer's own count of the transactions it has carried to `database`, from its admin console's SHOW STATS. */
  transactions(database: string): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer in transaction pooling, as managed poolers (Supabase's, RDS Proxy's and most
 * others) run it. A server connection belongs to a client for one transaction only, no prepared
 * statement is kept from one transaction to the next, and a start-up parameter PgBouncer does not
 * know (statement_timeout, options) is refused, since `ignore_startup_parameters` names none. It has
 * fewer server connections than the game server opens, so that they are really shared. `users` are
 * the roles it lets in, with their passwords (PostgreSQL's own). PgBouncer must not run as root, so
 * as root it runs as the `postgres` user.
 */
export async function startPgBouncer(
  postgresPort: number,
  users: Readonly<Record<string, string>> = { postgres: 'postgres' },
): Promise<RunningPgBouncer> {
  if (!existsSync(PGBOUNCER))
    throw new Error(`${PGBOUNCER} is missing: \`apt-get install -y pgbouncer\` (npm test installs it when run as root)`);
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'game-test-pgbouncer-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const files = {
    ini: join(dir, 'pgbouncer.ini'),
    users: join(dir, 'userlist.txt'),
  };
  writeFileSync(
    files.users,
    Object.entries(users)
      .map(([user, password]) => `"${user}" "${password}"\n`)
      .join(''),
    { mode: 0o600 },
  );
  writeFileSync(
    files.ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${postgresPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = scram-sha-256',
      `auth_file = ${files.users}`,
      'pool_mode = transaction',
      'default_pool_size = 5',
      'max_client_conn = 500',
      'stats_users = postgres',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  if (user) for (const f of [dir, files.ini, files.users]) chownSync(f, user.uid, user.gid);
  const child: ChildProcess = spawn(PGBOUNCER, [files.ini], { ...user, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let output = '';
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`pgbouncer did not start within 10 s: ${output}`)), 10_000);
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('process up')) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once('error', fail);
    void exited.then(() => fail(new Error(`pgbouncer exited while starting: ${output}`)));
  });
  // From here on its output is read and dropped, so that its log never fills the pipe.
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  const url = (database: string, user = 'postgres') => `postgres://${user}:${users[user]}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async transactions(database: string): Promise<number> {
      const admin = new Client({ connectionString: url('pgbouncer') });
      await admin.connect();
      try {
        const { rows } = await admin.query<{ database: string; total_xact_count: string }>('SHOW STATS');
        return Number(rows.find((r) => r.database === database)?.total_xact_count ?? 0);
      } finally {
        await admin.end();
      }
    },
    async stop() {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
