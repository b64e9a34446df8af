import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { installedBinaries, PostgresBinaries, reachableBinaries } from './postgres-binaries';
import { canReach, postgresUser, RunAs } from './postgres-user';

/** Where, as root, a cluster goes when the `postgres` user cannot reach the folder asked for. */
export const DEFAULT_CLUSTER_ROOT = '/var/lib/game-rooms';

export interface PostgresOptions {
  /** The cluster's folder (PGDATA). A cluster is initialised there when it holds none, and reused after that. */
  readonly dir: string;
  /** Whether to remove the cluster on stop, as tests do. */
  readonly fresh?: boolean;
  /** Extra server settings, e.g. `['-c', 'fsync=off']`. */
  readonly flags?: readonly string[];
  readonly binaries?: PostgresBinaries;
  /**
   * Binaries the `postgres` user can run where they are, such as a distribution's own under
   * /usr/lib/postgresql (for tests of other major versions). They are used in place and never copied.
   */
  readonly systemBinaries?: PostgresBinaries;
  readonly cacheRoot?: string;
  readonly clusterRoot?: string;
  readonly log?: (msg: string) => void;
}

export interface RunningPostgres {
  readonly port: number;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Where the cluster really is: either `dir`, or its place under the cluster root (see `relocated`). */
  readonly dir: string;
  readonly relocated: boolean;
  /** `postgres://postgres:postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  stop(): Promise<void>;
}

const PASSWORD = 'postgres';
// LC_MESSAGES=C makes PostgreSQL write its messages in English whatever the locale, because
// readiness is read from the server's own words.
const ENV = { ...process.env, LC_MESSAGES: 'C' };

/**
 * Starts a PostgreSQL from the npm-installed binaries on a free port of 127.0.0.1. It works from any
 * checkout path, as root or not. As root, everything runs as the `postgres` user, from binaries and
 * a cluster folder that this user can reach (see `reachableBinaries` and `clusterPlace`).
 */
export async function startPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const user = postgresUser();
  const binaries = options.systemBinaries ?? reachableBinaries(options.binaries ?? installedBinaries(), user, options.cacheRoot);
  const place = clusterPlace(options.dir, user, options.clusterRoot);
  if (place.relocated)
    options.log?.(`the postgres user cannot reach ${resolve(options.dir)}; the embedded cluster is kept in ${place.dir} instead`);
  if (!existsSync(join(place.dir, 'PG_VERSION'))) {
    options.log?.(`initialising an embedded PostgreSQL in ${place.dir}`);
    await initialise(binaries, place.dir, user);
  }
  const port = await freePort();
  const server = await serve(binaries, place.dir, port, user, options.flags ?? []);
  return {
    port,
    pid: server.pid,
    dir: place.dir,
    relocated: place.relocated,
    url: (database) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await server.stop();
      // A relocated cluster also had a folder of its own, which is removed with it.
      if (options.fresh) rmSync(place.relocated ? dirname(place.dir) : place.dir, { recursive: true, force: true });
    },
  };
}

/**
 * Finds the folder that a cluster asked for at `dir` really lives in. When `user` can reach `dir`
 * (which is always so when not root), it is `dir` itself. Otherwise, rather than opening the folders
 * above `dir` (such as /root) to everyone, the cluster gets a folder of its own under `clusterRoot`.
 * That folder is named by a hash of `dir`, so the same DATA_DIR finds the same cluster at its next
 * start.
 */
export function clusterPlace(
  dir: string,
  user: RunAs | undefined,
  clusterRoot = DEFAULT_CLUSTER_ROOT,
): { dir: string; relocated: boolean } {
  const wanted = resolve(dir);
  mkdirSync(dirname(wanted), { recursive: true });
  if (canReach(user, dirname(wanted))) return { dir: own(wanted, user), relocated: false };
  const home = join(clusterRoot, createHash('sha256').update(wanted).digest('hex').slice(0, 16));
  mkdirSync(home, { recursive: true, mode: 0o755 });
  for (const d of [clusterRoot, home]) chmodSync(d, 0o755);
  return { dir: own(join(home, 'pg'), user), relocated: true };
}

// initdb, running as `user`, cannot create a folder in a parent owned by root. So this creates the
// folder first and gives it to `user`.
function own(dir: string, user: RunAs | undefined): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

async function initialise(binaries: PostgresBinaries, dir: string, user: RunAs | undefined): Promise<void> {
  // The password file sits beside the cluster, where `user` can reach it. Only `user` can read it,
  // and it is removed after initdb.
  const pwfile = join(dirname(dir), `.pwfile-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, PASSWORD + '\n', { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  try {
    const { code, output } = await run(
      binaries.initdb,
      [`--pgdata=${dir}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, '--lc-messages=C'],
      user,
    );
    if (code !== 0) throw new Error(`initdb failed in ${dir} (exit ${code}): ${lastLines(output)}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

function run(file: string, args: string[], user: RunAs | undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...user, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

async function serve(
  binaries: PostgresBinaries,
  dir: string,
  port: number,
  user: RunAs | undefined,
  flags: readonly string[],
): Promise<{ pid: number; stop(): Promise<void> }> {
  // PostgreSQL gets its own process group. A Ctrl-C at the terminal then reaches only the server,
  // which drains first and then stops PostgreSQL itself, instead of both stopping at once.
  const child: ChildProcess = spawn(binaries.postgres, ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', ...flags], {
    ...user,
    env: ENV,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // If this process ends without stopping PostgreSQL (a crash, process.exit), PostgreSQL stops too.
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  // The start-up lines explain a failure. Once PostgreSQL is ready, the rest of its output is drained unread.
  let output = '';
  const collect = (d: Buffer) => (output += d.toString());
  child.stderr!.on('data', collect);
  await new Promise<void>((ready, fail) => {
    child.once('error', fail);
    child.stderr!.on('data', () => output.includes('database system is ready to accept connections') && ready());
    void exited.then(() => fail(new Error(`postgres exited while starting in ${dir}: ${lastLines(output)}`)));
  }).catch((err) => {
    process.removeListener('exit', onExit);
    throw err;
  });
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  // A kill at stop that fails shows in stop's wait, not as an uncaught 'error'.
  child.on('error', () => undefined);
  return {
    pid: child.pid!,
    stop: async () => {
      process.removeListener('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); // SIGINT asks for a fast shutdown.
      await exited;
    },
  };
}

function lastLines(output: string): string {
  return output.trim().split('\n').slice(-5).join(' | ') || '(no output)';
}

/** Finds a port of 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
