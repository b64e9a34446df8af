import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { BUILT_SERVER } from './server-process';

const REPO = resolve(__dirname, '../..');
const SCRIPT = join(REPO, 'scripts/cluster.mjs');
// PostgreSQL's first initdb, N servers and the proxy's first health checks.
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
const KEPT_LINES = 200;

export interface ClusterInstance {
  readonly instance: string;
  readonly pid: number;
  readonly url: string;
}

/** Scripts still running when this process exits, and their instances: killed, whatever happened. */
const running = new Set<{ script: ChildProcess; pids: number[] }>();
process.once('exit', () => {
  for (const { script, pids } of running) {
    for (const pid of pids) kill(pid, 'SIGKILL');
    script.kill('SIGKILL');
  }
});

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * `npm run cluster` as a test sees it: scripts/cluster.mjs started as a child (the built server,
 * an embedded PostgreSQL of its own, HAProxy in front), its JSON lines parsed into the instances
 * and the proxy's URL. The tokens are fixed, so the test signs nothing and reads no file.
 *
 *     const cluster = await ClusterProcess.start(3);
 *     await fetch(`${cluster.proxy}/health`);
 *     await cluster.stop();
 */
export class ClusterProcess {
  static readonly adminToken = 'cluster-test-admin-token-0123456789abcdef';
  static readonly tokenSecret = 'cluster-test-token-secret-0123456789abcdef';
  private readonly output: string[] = [];

  private constructor(
    private readonly script: ChildProcess,
    private readonly exited: Promise<number | null>,
    readonly instances: readonly ClusterInstance[],
    readonly proxy: string,
    output: string[],
    private readonly lines: ((line: string) => void)[],
    private readonly pids: number[],
  ) {
    this.output = output;
  }

  /** Starts an instance again in place (same name and port), dead or alive; resolves with its new pid. */
  restart(name: string, timeoutMs = START_TIMEOUT_MS): Promise<number> {
    return new Promise((done, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} was not restarted within ${timeoutMs} ms\n${this.recentOutput()}`)), timeoutMs);
      this.lines.push((line) => {
        const parsed = JSON.parse(line) as { restarted?: string; restartFailed?: string; pid?: number; error?: string };
        if (parsed.restarted === name && typeof parsed.pid === 'number') {
          clearTimeout(timer);
          this.pids.push(parsed.pid);
          done(parsed.pid);
        } else if (parsed.restartFailed === name) {
          clearTimeout(timer);
          reject(new Error(`${name} could not be restarted: ${parsed.error}`));
        }
      });
      this.script.stdin!.write(`restart ${name}\n`);
    });
  }

  static async start(instances: number, env: Record<string, string> = {}): Promise<ClusterProcess> {
    if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run \`npx nest build game-server\` first (npm test does it)`);
    const data = mkdtempSync(join(tmpdir(), 'game-cluster-'));
    chmodSync(data, 0o755); // as root, the postgres user enters it
    const script = spawn(process.execPath, [SCRIPT, '--instances', String(instances), '--port', '0', '--data', data, '--fresh'], {
      cwd: REPO,
      // stdin: the script's control lines (`restart <instance>`).
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmpdir(),
        NODE_ENV: 'test',
        ADMIN_TOKEN: ClusterProcess.adminToken,
        TOKEN_SECRET: ClusterProcess.tokenSecret,
        INSTANCE_HEARTBEAT_SECONDS: '1',
        LOG_LEVEL: 'info',
        ...env,
      },
    });
    const entry = { script, pids: [] as number[] };
    running.add(entry);
    const output: string[] = [];
    const keep = (line: string) => {
      output.push(line);
      if (output.length > KEPT_LINES) output.splice(0, output.length - KEPT_LINES);
    };
    createInterface({ input: script.stderr! }).on('line', (line) => keep(`[stderr] ${line}`));
    const exited = new Promise<number | null>((done) =>
      script.once('exit', (code) => {
        running.delete(entry);
        done(code);
      }),
    );
    const found: ClusterInstance[] = [];
    const lines: ((line: string) => void)[] = [];
    createInterface({ input: script.stdout! }).on('line', (line) => lines.forEach((hear) => hear(line)));
    const proxy = await new Promise<string>((done, reject) => {
      const timer = setTimeout(() => reject(new Error(`the cluster did not print its proxy within ${START_TIMEOUT_MS} ms\n${output.join('\n')}`)), START_TIMEOUT_MS);
      lines.push((line) => {
        keep(`[stdout] ${line}`);
        const parsed = JSON.parse(line) as Partial<ClusterInstance> & { proxy?: string };
        if (parsed.proxy) {
          clearTimeout(timer);
          done(parsed.proxy);
        } else if (parsed.instance && parsed.url && typeof parsed.pid === 'number') {
          found.push(parsed as ClusterInstance);
          entry.pids.push(parsed.pid);
        }
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the cluster script exited (code ${code}) before it printed its proxy\n${output.join('\n')}`));
      });
    });
    return new ClusterProcess(script, exited, found, proxy, output, lines, entry.pids);
  }

  /** The admin API's authorization header, good on every instance. */
  get admin(): Record<string, string> {
    return { authorization: `Bearer ${ClusterProcess.adminToken}` };
  }

  instance(name: string): ClusterInstance {
    const found = this.instances.find((i) => i.instance === name);
    if (!found) throw new Error(`no instance is named ${name}`);
    return found;
  }

  /** What the script and its children said lately, for a failure's message. */
  recentOutput(): string {
    return this.output.join('\n');
  }

  /** SIGTERM: the script stops the proxy, the instances and PostgreSQL, and removes its folder. */
  async stop(): Promise<number | null> {
    if (this.script.exitCode !== null || this.script.signalCode !== null) return this.script.exitCode;
    this.script.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the cluster did not stop within ${STOP_TIMEOUT_MS} ms\n${this.recentOutput()}`)), STOP_TIMEOUT_MS)));
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
