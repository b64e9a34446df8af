import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './cli';
import { DbHelperConfig, DbHelperReady } from './db-helper';

/** PostgreSQL (and the delay proxy) as the bench started them, in the helper process. */
export interface DatabaseSide {
  /** The URL that goes straight to PostgreSQL. */
  readonly directUrl: string;
  /** The URL the server uses. It goes through the proxy when there is a delay. */
  readonly serverUrl: string;
  readonly delayMs: number;
  readonly fast: boolean;
  readonly pgVersion: string;
  readonly settings: Record<string, string>;
  readonly postmasterPid?: number;
  readonly helperPid: number;
  /** The helper stops this process if the bench disappears. */
  watch(pid: number): void;
  stop(): Promise<void>;
}

export const HELPER_ARG = '__db';

export async function startDatabase(options: {
  workDir: string;
  delayMs: number;
  fast: boolean;
  statements?: boolean;
}): Promise<DatabaseSide> {
  const config: DbHelperConfig = {
    dataDir: join(options.workDir, 'db'),
    delayMs: options.delayMs,
    fast: options.fast,
    statements: options.statements,
  };
  // The helper gets its own process group, so that a Ctrl-C reaches only the bench, which then stops
  // things in order.
  const child = spawn(process.execPath, [process.argv[1], HELPER_ARG], {
    env: { ...process.env, BENCH_DB_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d.toString()).slice(-4000)));
  const ready = await new Promise<DbHelperReady>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start within 120 s: ${stderr}`)), 120_000);
    child.on('message', (m: DbHelperReady) => {
      if (m?.kind === 'ready') {
        clearTimeout(timer);
        resolveReady(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the database helper exited (${code}) before PostgreSQL was ready: ${stderr.trim()}`));
    });
  });
  const directUrl = `postgres://postgres:postgres@127.0.0.1:${ready.pgPort}/game`;
  const serverUrl = ready.proxyPort ? `postgres://postgres:postgres@127.0.0.1:${ready.proxyPort}/game` : directUrl;
  let stopped: Promise<void> | undefined;
  return {
    directUrl,
    serverUrl,
    delayMs: options.delayMs,
    fast: options.fast,
    pgVersion: ready.pgVersion,
    settings: ready.settings,
    postmasterPid: ready.postmasterPid,
    helperPid: child.pid!,
    watch: (pid) => child.connected && child.send({ kind: 'watch', pid }),
    stop: () =>
      (stopped ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        if (child.connected) child.send({ kind: 'stop' });
        else child.kill('SIGTERM');
        if (!(await within(exited, 30_000))) {
          child.kill('SIGKILL');
          if (ready.postmasterPid) signal(ready.postmasterPid, 'SIGINT');
        }
      })()),
  };
}

/** The game server as a child process, with its log kept in the run's work dir. */
export interface ServerSide {
  readonly url: string;
  readonly pid: number;
  readonly command: readonly string[];
  readonly env: Record<string, string>;
  /** The count of JSON log lines by level, and the last lines. */
  logSummary(): { byLevel: Record<string, number>; tail: string[]; file: string };
  stop(): Promise<void>;
}

/** Finds the checkout a built script belongs to: the nearest folder above it with a package.json. */
export function checkoutOf(script: string): string {
  for (let dir = dirname(script); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return dirname(script);
  }
}

export function defaultServerCommand(cwd: string): string[] {
  return [process.execPath, resolve(cwd, 'dist/apps/game-server/apps/game-server/src/main.js')];
}

export async function startServer(options: {
  command: readonly string[];
  cwd: string;
  databaseUrl: string;
  dataDir: string;
  env: Record<string, string>;
  logFile: string;
}): Promise<ServerSide> {
  const [exe, ...args] = options.command;
  const script = args.find((a) => a.endsWith('.js'));
  if (script && !existsSync(resolve(options.cwd, script))) {
    throw new UsageError(`the server is not built: ${script} is missing (run: npx nest build game-server)`);
  }
  mkdirSync(options.dataDir, { recursive: true });
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: options.databaseUrl,
    DATA_DIR: options.dataDir,
    // The token has 43 characters, because the server refuses an admin token shorter than 32.
    ADMIN_TOKEN: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
    // The bench measures the server, not its limits. It opens rooms by the thousand from one address,
    // holds as many live as a rung asks, and seeds its tables. --server-env may still set the limits.
    OPEN_RATE_PER_MINUTE: '0',
    JOINS_PER_MINUTE: '0',
    LOOKUPS_PER_MINUTE: '0',
    SPECTATORS_PER_MINUTE: '0',
    IMAGE_UPLOADS_PER_MINUTE: '0',
    DECK_WRITES_PER_MINUTE: '0',
    INSTANCE_OPENS_PER_MINUTE: '0',
    INSTANCE_JOINS_PER_MINUTE: '0',
    INSTANCE_DECK_WRITES_PER_MINUTE: '0',
    INSTANCE_LOOKUPS_PER_MINUTE: '0',
    INSTANCE_SPECTATORS_PER_MINUTE: '0',
    INSTANCE_IMAGE_UPLOADS_PER_MINUTE: '0',
    OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: '0',
    MAX_LIVE_ROOMS: '0',
    MAX_SOCKETS: '0',
    ALLOW_TEST_SEEDS: '1',
    ...options.env,
  };
  const child: ChildProcess = spawn(exe, args, {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const byLevel: Record<string, number> = {};
  const tail: string[] = [];
  let partial = '';
  const onData = (d: Buffer) => {
    log.write(d);
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > 40) tail.shift();
      try {
        const level = (JSON.parse(line) as { level?: string }).level;
        if (level) byLevel[level] = (byLevel[level] ?? 0) + 1;
      } catch {
        // not a log line
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  let ok = false;
  let exitCode: number | null | undefined;
  void exited.then((c) => (exitCode = c));
  while (Date.now() < until && exitCode === undefined) {
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) {
        ok = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return void log.end();
    child.kill('SIGTERM');
    if (!(await within(exited, 20_000))) child.kill('SIGKILL');
    await exited;
    log.end();
  };
  if (!ok) {
    await stop();
    throw new Error(
      `the server did not become healthy (${exitCode !== undefined ? `exited with ${exitCode}` : 'timed out'}):\n${tail.slice(-15).join('\n')}`,
    );
  }
  return {
    url,
    pid: child.pid!,
    command: options.command,
    env,
    logSummary: () => ({ byLevel: { ...byLevel }, tail: [...tail], file: options.logFile }),
    stop,
  };
}

function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((r) => {
    const t = setTimeout(() => r(false), ms);
    // A promise settled either way counts as "within", because the caller asks whether it ended in
    // time, not how.
    const settled = () => (clearTimeout(t), r(true));
    p.then(settled, settled);
  });
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** When the server's build was made, and the newest of the source files it is built from. */
export interface BuildFreshness {
  readonly builtAt: Date;
  readonly newestSource?: { readonly file: string; readonly at: Date };
  readonly stale: boolean;
}

/**
 * Compares the built entry point with the server's sources (apps/game-server/src, the libraries it
 * uses, the migrations). /health names the sha of the source tree the server runs in, not of what was
 * compiled, so a build older than its sources would be measured under the wrong name.
 */
export function buildFreshness(cwd: string, script: string): BuildFreshness | undefined {
  let builtAt: Date;
  try {
    builtAt = statSync(resolve(cwd, script)).mtime;
  } catch {
    return undefined;
  }
  let newest: { file: string; at: Date } | undefined;
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) {
        if (name !== 'node_modules' && name !== 'test') walk(path);
      } else if (name.endsWith('.ts') && !/\.(spec|e2e-spec)\.ts$/.test(name) && (!newest || st.mtime > newest.at)) {
        newest = { file: path.slice(cwd.length + 1), at: st.mtime };
      }
    }
  };
  walk(join(cwd, 'apps/game-server/src'));
  walk(join(cwd, 'migrations'));
  for (const lib of ['protocol', 'room-engine', 'trivia', 'persistence', 'gateway', 'observability', 'server'])
    walk(join(cwd, 'libs', lib, 'src'));
  return { builtAt, newestSource: newest, stale: !!newest && newest.at > builtAt };
}
