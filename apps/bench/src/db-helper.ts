import { join } from 'node:path';
import { Client } from 'pg';
import { DelayProxy } from '@app/bot-kit';
import { startPostgres } from '../../game-server/src/embedded/postgres-cluster';
import { PG_STATEMENTS_FLAGS } from './pg-statements';

/**
 * Runs the database side of a bench run in its own process: an embedded PostgreSQL in a fresh data
 * directory and, when asked, the delay proxy in front of it. It is kept out of the bench process so
 * that the bots' work cannot delay the proxy's timers, and so that PostgreSQL's exit hook does not
 * race the bench's own shutdown. When the bench goes away (its IPC channel closes, even on SIGKILL),
 * this process stops the server it was told about, then PostgreSQL.
 */
export interface DbHelperConfig {
  readonly dataDir: string;
  readonly delayMs: number;
  /** Turns fsync and synchronous_commit off. This is not production-like, and the report says so. */
  readonly fast: boolean;
  /** Loads pg_stat_statements (`--pg-statements`). */
  readonly statements?: boolean;
}

export interface DbHelperReady {
  readonly kind: 'ready';
  readonly pgPort: number;
  readonly proxyPort?: number;
  readonly postmasterPid?: number;
  readonly pgVersion: string;
  readonly settings: Record<string, string>;
}

export type DbHelperMessage = { kind: 'watch'; pid: number } | { kind: 'stop' };

export async function runDbHelper(config: DbHelperConfig): Promise<void> {
  const send = (m: unknown) => process.send?.(m);
  const flags = config.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [];
  // Use the server's own start-up, which, as root, runs from binaries and a folder that the postgres
  // user can reach.
  const pg = await startPostgres({
    dir: join(config.dataDir, 'pg'),
    fresh: true,
    flags: ['-c', 'max_connections=200', ...flags, ...(config.statements ? PG_STATEMENTS_FLAGS : [])],
    log: (msg) => process.stderr.write(`postgres: ${msg}\n`),
  });
  const port = pg.port;
  const admin = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE game');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
  const settings: Record<string, string> = {};
  for (const name of ['fsync', 'synchronous_commit', 'shared_buffers', 'max_connections', 'wal_level']) {
    settings[name] = (await admin.query(`SHOW ${name}`)).rows[0][name];
  }
  await admin.end();

  let proxy: DelayProxy | undefined;
  if (config.delayMs > 0) {
    proxy = new DelayProxy({ host: '127.0.0.1', port }, config.delayMs);
    await proxy.start();
  }
  const postmasterPid = pg.pid;

  let watched: number | undefined;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (watched) await terminate(watched);
    await proxy?.stop();
    await pg.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('message', (m: DbHelperMessage) => {
    if (m?.kind === 'watch') watched = m.pid;
    if (m?.kind === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  const ready: DbHelperReady = { kind: 'ready', pgPort: port, proxyPort: proxy?.port, postmasterPid, pgVersion: version, settings };
  send(ready);
}

/** Sends SIGTERM, then SIGKILL if the process is still there after 15 s. */
async function terminate(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const until = Date.now() + 15_000;
  while (alive() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (alive()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // The process is gone meanwhile.
    }
  }
}
