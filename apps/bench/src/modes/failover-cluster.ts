import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// PostgreSQL's initdb, N servers and the proxy's first health checks, on a busy machine.
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

export interface ClusterMember {
  readonly instance: string;
  readonly pid: number;
  readonly url: string;
}

/** Scripts and instances still running when the bench exits: killed, whatever happened. */
const running = new Set<BenchCluster>();
process.once('exit', () => {
  for (const c of running) c.killEverything();
});

/**
 * `npm run cluster` started by the bench: scripts/cluster.mjs as a child with a fresh data
 * folder of its own and random secrets, its JSON lines read into the instances and the proxy.
 * The database URL is read from the embedded PostgreSQL's postmaster.pid (the script does not
 * print it): the password is the embedded cluster's fixed one.
 */
export class BenchCluster {
  private readonly tail: string[] = [];
  private exited!: Promise<number | null>;

  private constructor(
    private readonly script: ChildProcess,
    readonly dataDir: string,
    readonly adminToken: string,
  ) {}

  instances: ClusterMember[] = [];
  proxy = '';

  static async start(repo: string, count: number, env: Record<string, string>, log: (msg: string) => void): Promise<BenchCluster> {
    const script = join(repo, 'scripts/cluster.mjs');
    if (!existsSync(script)) throw new Error(`${script} is missing`);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
    chmodSync(dataDir, 0o755); // as root, the postgres user enters it
    const adminToken = randomBytes(24).toString('base64url');
    const child = spawn(process.execPath, [script, '--instances', String(count), '--port', '0', '--data', dataDir, '--fresh'], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ADMIN_TOKEN: adminToken, TOKEN_SECRET: randomBytes(32).toString('base64url'), ...env },
    });
    const cluster = new BenchCluster(child, dataDir, adminToken);
    running.add(cluster);
    cluster.exited = new Promise((done) =>
      child.once('exit', (code) => {
        running.delete(cluster);
        done(code);
      }),
    );
    createInterface({ input: child.stderr! }).on('line', (line) => cluster.keep(line));
    await new Promise<void>((done, reject) => {
      const timer = setTimeout(() => reject(new Error(`the cluster did not print its proxy within ${START_TIMEOUT_MS} ms\n${cluster.tail.join('\n')}`)), START_TIMEOUT_MS);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        cluster.keep(line);
        let parsed: Partial<ClusterMember> & { proxy?: string };
        try {
          parsed = JSON.parse(line);
        } catch {
          return;
        }
        if (parsed.proxy) {
          clearTimeout(timer);
          cluster.proxy = parsed.proxy;
          done();
        } else if (parsed.instance && parsed.url && typeof parsed.pid === 'number') {
          cluster.instances.push(parsed as ClusterMember);
          log(`${parsed.instance}: pid ${parsed.pid}, ${parsed.url}`);
        }
      });
      void cluster.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the cluster script exited (code ${code}) before it printed its proxy\n${cluster.tail.join('\n')}`));
      });
    });
    return cluster;
  }

  /** The cluster's DATABASE_URL, from the port its PostgreSQL wrote in postmaster.pid. */
  databaseUrl(): string {
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

  /** The codes each instance holds live now, asked of each directly (a dead one holds none). */
  async roomsByInstance(): Promise<Map<string, Set<string>>> {
    const lists = await Promise.all(
      this.instances.map(async (i) => {
        const codes = await fetch(`${i.url}/admin/api/rooms`, { headers: this.admin, signal: AbortSignal.timeout(5000) })
          .then((r) => (r.ok ? (r.json() as Promise<{ rooms: { code: string }[] }>) : { rooms: [] }))
          .then((b) => b.rooms.map((r) => r.code), () => [] as string[]);
        return [i.instance, new Set(codes)] as const;
      }),
    );
    return new Map(lists);
  }

  /** The script's last lines (and its children's, through its stderr), for a failure's message. */
  recentOutput(): string {
    return this.tail.join('\n');
  }

  /** Copies the instances' and the proxy's logs (before `stop` removes the folder). */
  keepLogs(to: string): void {
    for (const f of readdirSync(this.dataDir).filter((n) => n.endsWith('.log'))) cpSync(join(this.dataDir, f), join(to, f));
  }

  /** SIGTERM: the script stops the proxy, the instances (they drain), PostgreSQL, and removes its folder. */
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

  private keep(line: string): void {
    this.tail.push(line);
    if (this.tail.length > 200) this.tail.splice(0, this.tail.length - 200);
  }
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
