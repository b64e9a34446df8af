import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { epochMs } from './bots/command-record';

// Long enough for PostgreSQL's initdb, N servers and the proxy's first health checks, on a busy machine.
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;
// Long enough for one instance's drain (which the script bounds at 30 s) and its new start, on a busy machine.
const RESTART_TIMEOUT_MS = 120_000;
// The proxy sends an instance traffic again two health checks (a second apart) after the instance is up.
const BACK_IN_PROXY_TIMEOUT_MS = 60_000;

export interface ClusterMember {
  readonly instance: string;
  readonly pid: number;
  readonly url: string;
  /** Where the instance serves /metrics and /admin (its OPERATOR_PORT, which the proxy never forwards to). */
  readonly operatorUrl: string;
}

/** The script's {"restarted"} line: the instance's new process, which is up and answering /health. */
export interface RestartedMember extends ClusterMember {
  /** The time from SIGTERM to the new process's first 200 on /health (asked directly, not through the proxy). */
  readonly downMs: number;
  /** The time from SIGTERM to the old process's exit, which is its drain (0 if it had died already). */
  readonly stoppedMs: number;
}

type ScriptLine = Partial<ClusterMember> & {
  proxy?: string;
  restarted?: string;
  restartFailed?: string;
  error?: string;
  downMs?: number;
  stoppedMs?: number;
};

/**
 * What the instances get on top of the caller's environment: no open rate limit, seeds honoured,
 * and no shedding of new anonymous work at the low event-loop mark (tests and the bench share a
 * busy machine).
 */
const HARNESS_ENV = {
  OPEN_RATE_PER_MINUTE: '0',
  OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: '0',
  ALLOW_TEST_SEEDS: '1',
  ALLOW_TEST_GAMES: '1',
};

/** Scripts and instances still running when this process exits. They are killed, whatever happened. */
const running = new Set<ClusterScript>();
process.once('exit', () => {
  for (const c of running) c.killEverything();
});

/**
 * Runs `npm run cluster` as the bench and the tests start it: scripts/cluster.mjs as a child
 * process, with a fresh data folder of its own and random secrets (unless `env` gives them). Its
 * JSON lines are read into the instances and the proxy. The database URL is read from the
 * embedded PostgreSQL's postmaster.pid, because the script does not print it. The password is the
 * embedded cluster's fixed one.
 *
 *     const cluster = await ClusterScript.start(repo, 3, {}, console.log);
 *     await fetch(`${cluster.proxy}/health`);
 *     await cluster.stop();
 */
export class ClusterScript {
  private readonly tail: string[] = [];
  private exited!: Promise<number | null>;
  /** Whoever waits for the script's next JSON lines (the start, a restart). */
  private readonly readers = new Set<(line: ScriptLine) => void>();
  /** Whoever waits for a line of the script's output (stdout or stderr) holding some text. */
  private readonly watchers = new Set<(line: string) => void>();

  private constructor(
    private readonly script: ChildProcess,
    readonly dataDir: string,
    readonly adminToken: string,
    private readonly outsideDatabaseUrl?: string,
  ) {}

  instances: ClusterMember[] = [];
  proxy = '';

  /** Starts the script. `base` is the environment it inherits (a test passes a bare one), and `env` is laid over it. */
  static async start(
    repo: string,
    count: number,
    env: Record<string, string>,
    log: (msg: string) => void,
    base: NodeJS.ProcessEnv = process.env,
    /** `databaseUrl` names an outside PostgreSQL for the instances, instead of the script's embedded one. */
    options: { readonly databaseUrl?: string } = {},
  ): Promise<ClusterScript> {
    const script = join(repo, 'scripts/cluster.mjs');
    if (!existsSync(script)) throw new Error(`${script} is missing`);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
    chmodSync(dataDir, 0o755); // so that, when this runs as root, the postgres user can enter it
    const adminToken = env.ADMIN_TOKEN ?? randomBytes(24).toString('base64url');
    const database = options.databaseUrl ? ['--database-url', options.databaseUrl] : [];
    const child = spawn(
      process.execPath,
      [script, '--instances', String(count), '--port', '0', '--data', dataDir, '--fresh', ...database],
      {
        cwd: repo,
        // stdin carries `restart <name>` lines, which scripts/cluster.mjs reads once it is up.
        stdio: ['pipe', 'pipe', 'pipe'],
        // Tests and the bench open rooms by the hundred from one address, and tables with seeds, and
        // this cluster is started for them (a run may lay other limits over these).
        env: { ...base, TOKEN_SECRET: randomBytes(32).toString('base64url'), ...HARNESS_ENV, ...env, ADMIN_TOKEN: adminToken },
      },
    );
    const cluster = new ClusterScript(child, dataDir, adminToken, options.databaseUrl);
    running.add(cluster);
    cluster.exited = new Promise((done) =>
      child.once('exit', (code) => {
        running.delete(cluster);
        done(code);
      }),
    );
    // A bench that exits after the script is gone must not die of a write to its closed stdin.
    child.stdin!.on('error', () => undefined);
    createInterface({ input: child.stderr! }).on('line', (line) => cluster.keep(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      cluster.keep(line);
      let parsed: ScriptLine;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      for (const read of [...cluster.readers]) read(parsed);
    });
    await cluster.next(`print its proxy`, START_TIMEOUT_MS, (parsed) => {
      if (parsed.proxy) {
        cluster.proxy = parsed.proxy;
        return true;
      }
      if (parsed.instance && parsed.url && parsed.operatorUrl && typeof parsed.pid === 'number') {
        cluster.instances.push({ instance: parsed.instance, pid: parsed.pid, url: parsed.url, operatorUrl: parsed.operatorUrl });
        log(`${parsed.instance}: pid ${parsed.pid}, ${parsed.url}`);
      }
      return false;
    });
    return cluster;
  }

  /**
   * Writes `restart <name>` on the script's stdin. The instance drains (SIGTERM) and starts again
   * with the same name, port and data dir. Resolves with its new process once that answers /health.
   */
  async restart(name: string): Promise<RestartedMember> {
    const member = this.member(name);
    let failed: string | undefined;
    let back: RestartedMember | undefined;
    const waiting = this.next(`restart ${name}`, RESTART_TIMEOUT_MS, (line) => {
      if (line.restartFailed === name) failed = line.error ?? 'no reason given';
      else if (
        line.restarted === name &&
        typeof line.pid === 'number' &&
        line.url &&
        line.operatorUrl &&
        typeof line.downMs === 'number' &&
        typeof line.stoppedMs === 'number'
      ) {
        back = {
          instance: name,
          pid: line.pid,
          url: line.url,
          operatorUrl: line.operatorUrl,
          downMs: line.downMs,
          stoppedMs: line.stoppedMs,
        };
      }
      return failed !== undefined || back !== undefined;
    });
    this.send(`restart ${name}`);
    await waiting;
    if (failed !== undefined) throw new Error(`the cluster could not restart ${name}: ${failed}\n${this.tail.join('\n')}`);
    // The new pid replaces the old one, so that a later kill, or the cleanup at exit, reaches the live process.
    this.instances = this.instances.map((i) =>
      i === member ? { instance: name, pid: back!.pid, url: back!.url, operatorUrl: back!.operatorUrl } : i,
    );
    return back!;
  }

  /** Writes one line on the script's stdin. `restart` sends its own lines, and a test sends bad ones. */
  send(line: string): void {
    this.script.stdin!.write(`${line}\n`);
  }

  /**
   * Resolves with the time (epoch ms) once the proxy sends a request to `name` again. /health
   * through the proxy carries no room code, so HAProxy balances it round robin over the instances
   * it holds up, and `X-Served-By` names the one that answered.
   */
  async servedThroughProxy(name: string, signal?: AbortSignal): Promise<number> {
    const until = Date.now() + BACK_IN_PROXY_TIMEOUT_MS;
    while (Date.now() < until && !signal?.aborted) {
      const by = await fetch(`${this.proxy}/health`, { signal: AbortSignal.timeout(5000) }).then(
        (r) => (r.ok ? r.headers.get('x-served-by') : null),
        () => null,
      );
      if (by === name) return epochMs();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the proxy did not send a request to ${name} within ${BACK_IN_PROXY_TIMEOUT_MS} ms of its restart`);
  }

  /** Waits for a JSON line of the script's stdout that `take` accepts. Fails if the script exits first. */
  private next(what: string, timeoutMs: number, take: (line: ScriptLine) => boolean): Promise<void> {
    return new Promise<void>((done, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.readers.delete(read);
        if (err) reject(err);
        else done();
      };
      const read = (line: ScriptLine) => take(line) && finish();
      const timer = setTimeout(
        () => finish(new Error(`the cluster did not ${what} within ${timeoutMs} ms\n${this.tail.join('\n')}`)),
        timeoutMs,
      );
      this.readers.add(read);
      void this.exited.then((code) =>
        finish(new Error(`the cluster script exited (code ${code}) before it would ${what}\n${this.tail.join('\n')}`)),
      );
    });
  }

  /**
   * The cluster's DATABASE_URL: the one it was given, or else its own, built from the port its
   * PostgreSQL wrote in postmaster.pid.
   */
  databaseUrl(): string {
    if (this.outsideDatabaseUrl) return this.outsideDatabaseUrl;
    const pidFile = join(this.dataDir, 'database', 'pg', 'postmaster.pid');
    if (!existsSync(pidFile)) throw new Error(`${pidFile} is missing: the cluster's PostgreSQL is not where scripts/cluster.mjs puts it`);
    const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
    if (!Number.isInteger(port) || port <= 0) throw new Error(`no port on line 4 of ${pidFile}`);
    return `postgres://postgres:postgres@127.0.0.1:${port}/game`;
  }

  get admin(): Record<string, string> {
    return { authorization: `Bearer ${this.adminToken}` };
  }

  member(name: string): ClusterMember {
    const found = this.instances.find((i) => i.instance === name);
    if (!found) throw new Error(`no instance is named '${name}' (the cluster has ${this.instances.map((i) => i.instance).join(', ')})`);
    return found;
  }

  /** The codes each instance holds live now, asked of each instance directly (a dead one holds none). */
  async roomsByInstance(): Promise<Map<string, Set<string>>> {
    const lists = await Promise.all(
      this.instances.map(async (i) => {
        const codes = await fetch(`${i.operatorUrl}/admin/api/rooms`, { headers: this.admin, signal: AbortSignal.timeout(5000) })
          .then((r) => (r.ok ? (r.json() as Promise<{ rooms: { code: string }[] }>) : { rooms: [] }))
          .then(
            (b) => b.rooms.map((r) => r.code),
            () => [] as string[],
          );
        return [i.instance, new Set(codes)] as const;
      }),
    );
    return new Map(lists);
  }

  /** The script's last lines (and its children's, through its stderr), for a failure's message. */
  recentOutput(): string {
    return this.tail.join('\n');
  }

  /** Copies the logs of the instances and the proxy (call it before `stop` removes the folder). */
  keepLogs(to: string): void {
    for (const f of readdirSync(this.dataDir).filter((n) => n.endsWith('.log'))) cpSync(join(this.dataDir, f), join(to, f));
  }

  /**
   * Sends the script SIGTERM. It then stops the proxy, the instances (which drain) and PostgreSQL,
   * and removes its folder.
   */
  async stop(): Promise<void> {
    if (this.script.exitCode === null && this.script.signalCode === null) {
      this.script.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), STOP_TIMEOUT_MS)));
      const how = await Promise.race([this.exited, late]);
      clearTimeout(timer);
      if (how === 'late') this.killEverything();
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  killEverything(): void {
    for (const i of this.instances) kill(i.pid);
    this.script.kill('SIGKILL');
  }

  /** Resolves with the first line of the script's output from now on that holds `text`. */
  lineWith(text: string, timeoutMs = 30_000): Promise<string> {
    return new Promise((done, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(watch);
        reject(new Error(`the cluster printed no line with '${text}' within ${timeoutMs} ms\n${this.tail.join('\n')}`));
      }, timeoutMs);
      const watch = (line: string) => {
        if (!line.includes(text)) return;
        clearTimeout(timer);
        this.watchers.delete(watch);
        done(line);
      };
      this.watchers.add(watch);
    });
  }

  private keep(line: string): void {
    for (const watch of [...this.watchers]) watch(line);
    this.tail.push(line);
    if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // The process is already gone.
  }
}
