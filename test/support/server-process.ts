import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase } from './database';

const REPO = resolve(__dirname, '../..');
/** The file that `nest build game-server` produces. scripts/test.mjs builds it before jest runs. */
export const BUILT_SERVER = join(REPO, 'dist/apps/game-server/apps/game-server/src/main.js');

/** Fails, saying what to do, when the built server is missing (as for a test started outside `npm test`). */
export function requireBuiltServer(): void {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run \`npx nest build game-server\` first (npm test does it)`);
}

const START_TIMEOUT_MS = 20_000;
// On SIGTERM the server drains (up to 5 s for mailboxes, 2 s for sockets) before the process exits.
const EXIT_TIMEOUT_MS = 15_000;
// How many lines of the child's output are kept for a failure report. Only the last lines are kept,
// so a chatty server cannot grow the report.
const KEPT_LINES = 200;

/** The children still running. They are killed when this process exits, whatever happened to the tests. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ServerProcessOptions {
  /** Extra environment for the server (ROOM_EXPIRY_SECONDS, PASSIVATE_AFTER_SECONDS...). */
  readonly env?: Record<string, string>;
  /** The database to serve (DATABASE_URL). When it is unset, the server gets a fresh one cloned from the migrated template. */
  readonly databaseUrl?: string;
}

/**
 * The built game server as a real child process over its own fresh database. It is for tests that
 * must kill the server for real, since an in-process server cannot kill -9 itself. Each start
 * listens on a free port, so `url` changes across restarts. The database, the token secret and the
 * admin token stay the same, so seats reconnect with the tokens they were given.
 *
 *     const server = await ServerProcess.create();
 *     await server.start();
 *     await server.kill('SIGKILL');
 *     await server.restart();
 */
export class ServerProcess {
  readonly tokenSecret = 'recovery-test-token-secret-0123456789abcdef';
  readonly adminToken = 'recovery-test-admin-token-0123456789abcdef';
  private child?: ChildProcess;
  private exited?: Promise<Exit>;
  private currentPort?: number;
  private readonly output: string[] = [];
  /** How many lines were written since the first start, kept or not. It marks where a test's own output begins. */
  private linesWritten = 0;
  private starts = 0;

  private constructor(
    readonly databaseUrl: string,
    readonly dataDir: string,
    private readonly options: ServerProcessOptions,
  ) {}

  static async create(options: ServerProcessOptions = {}): Promise<ServerProcess> {
    requireBuiltServer();
    return new ServerProcess(
      options.databaseUrl ?? (await createTestDatabase()),
      mkdtempSync(join(tmpdir(), 'game-recovery-data-')),
      options,
    );
  }

  get url(): string {
    if (this.currentPort === undefined) throw new Error('the server is not running');
    return `http://127.0.0.1:${this.currentPort}`;
  }

  /** The server's process id, for a test that acts on the process from outside (such as a CPU thief). */
  get pid(): number {
    if (this.child?.pid === undefined) throw new Error('the server is not running');
    return this.child.pid;
  }

  get isRunning(): boolean {
    return this.child !== undefined;
  }

  /** Starts the server and resolves once it has logged `server started` with the port it got. */
  async start(): Promise<void> {
    if (this.child) throw new Error('the server is already running; kill it first');
    const startNo = ++this.starts;
    const child = spawn(process.execPath, [BUILT_SERVER], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        NODE_ENV: 'test',
        DATABASE_URL: this.databaseUrl,
        HOST: '127.0.0.1',
        PORT: '0',
        TOKEN_SECRET: this.tokenSecret,
        ADMIN_TOKEN: this.adminToken,
        DATA_DIR: this.dataDir,
        LOG_LEVEL: 'info',
        // A restart is the same server (as a deployment's stable name says), so it takes its rooms'
        // leases back at once.
        INSTANCE_NAME: 'restarted-server',
        // This is a server started for tests, so tables take the specs' seeds.
        ALLOW_TEST_SEEDS: '1',
        // It also serves the games that live only in tests.
        ALLOW_TEST_GAMES: '1',
        // A test's machine is busy with the test itself: new anonymous work is not shed at the low
        // event-loop mark unless a test asks (admission.e2e-spec does).
        OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: '0',
        ...this.options.env,
      },
    });
    this.child = child;
    running.add(child);
    this.exited = new Promise<Exit>((resolveExit) =>
      child.once('exit', (code, signal) => {
        running.delete(child);
        if (this.child === child) {
          this.child = undefined;
          this.currentPort = undefined;
        }
        this.keep(`[start ${startNo}] exited with ${signal ?? `code ${code}`}`);
        resolveExit({ code, signal });
      }),
    );
    // This settles once, on whichever comes first: the port from the log line, the exit, or the time
    // limit.
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL'); // A server that never came up is not left behind.
        reject(this.failure(`the server did not log "server started" within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      const settle = (f: () => void) => {
        clearTimeout(timer);
        f();
      };
      createInterface({ input: child.stdout! }).on('line', (line) => {
        this.keep(`[start ${startNo} stdout] ${line}`);
        const entry = parseLogLine(line);
        if (entry?.msg === 'server started' && typeof entry.port === 'number') settle(() => resolvePort(entry.port as number));
      });
      createInterface({ input: child.stderr! }).on('line', (line) => this.keep(`[start ${startNo} stderr] ${line}`));
      void this.exited!.then((exit) =>
        settle(() => reject(this.failure(`the server exited before it started (${exit.signal ?? `code ${exit.code}`})`))),
      );
    });
    this.currentPort = port;
  }

  /** Sends `signal` to the server and resolves with how it exited. */
  async kill(signal: 'SIGKILL' | 'SIGTERM'): Promise<Exit> {
    const child = this.child;
    if (!child || !this.exited) throw new Error('the server is not running');
    child.kill(signal);
    const exited = this.exited;
    return new Promise<Exit>((resolveExit, reject) => {
      const timer = setTimeout(
        () => reject(this.failure(`the server did not exit within ${EXIT_TIMEOUT_MS} ms of ${signal}`)),
        EXIT_TIMEOUT_MS,
      );
      void exited.then((exit) => {
        clearTimeout(timer);
        resolveExit(exit);
      });
    });
  }

  /**
   * Stops (SIGSTOP) or continues (SIGCONT) the server's process, so that it really gets no CPU. The
   * process stays alive, and its timers come due while it is stopped and run late.
   */
  suspend(signal: 'SIGSTOP' | 'SIGCONT'): void {
    if (!this.child) throw new Error('the server is not running');
    this.child.kill(signal);
  }

  /** Starts the server again after a kill, on the same database, secret and data directory. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('the server is still running; kill it first (with the signal the test means)');
    await this.start();
  }

  /** Kills the server, for afterAll/afterEach. The process is gone afterwards, whatever state it was in. */
  async dispose(): Promise<void> {
    if (this.child) await this.kill('SIGKILL');
  }

  /**
   * Runs a test body. If it fails, the server's recent output is added to the error, so a failure
   * shows what the server said and a passing test prints nothing.
   */
  async explainFailure<T>(body: () => Promise<T>): Promise<T> {
    const from = this.linesWritten;
    try {
      return await body();
    } catch (err) {
      const lines = this.output.slice(Math.max(0, this.output.length - (this.linesWritten - from)));
      if (err instanceof Error)
        err.message += `\n\n--- the server's output during this test (${lines.length} lines) ---\n${lines.join('\n')}`;
      throw err;
    }
  }

  private failure(message: string): Error {
    return new Error(`${message}\n--- server output ---\n${this.output.join('\n')}`);
  }

  private keep(line: string): void {
    this.output.push(line);
    this.linesWritten++;
    if (this.output.length > KEPT_LINES) this.output.splice(0, this.output.length - KEPT_LINES);
  }
}

function parseLogLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined; // The start-up banner is plain text.
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
