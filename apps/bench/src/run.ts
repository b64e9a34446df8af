import { installPgStatements } from './pg-statements';
import { setMaxListeners } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, WriteStream, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { Client } from 'pg';
import { join, relative, resolve } from 'node:path';
import { CommandRecord, HUMAN_PAUSE, HumanPause, MetricsSnapshot, RecordSink, TriviaRoomBotOptions } from '@app/bot-kit';
import { WIRE_PROFILES, WireProfile, wireProfileOf } from '@app/protocol';
import { Options, parseEnvList, splitWords, UsageError } from './cli';
import { cpuSeconds, parentPid, UsageMeter } from './host-usage';
import {
  buildFreshness,
  BuildFreshness,
  checkoutOf,
  DatabaseSide,
  defaultServerCommand,
  ServerSide,
  startDatabase,
  startServer,
} from './stack';
import { MetricsDelta } from './stats';
import { measureDistances, Distances } from './yardstick';
// A small seeded generator (mulberry32), so that pauses and choices can be repeated.
export { seededRandom } from './seeded-random';

/** Where the server is and how the bench reaches it. */
export interface TargetSettings {
  /** Measure this running server instead of starting one. */
  readonly url?: string;
  /** With --url of a cluster's proxy: the URL of every instance, read directly for per-instance figures. */
  readonly instanceUrls: readonly string[];
  /** With --url: the database that the yardstick measures. */
  readonly databaseUrl?: string;
  readonly dbDelayMs: number;
  readonly serverCommand: string[];
  /** The checkout the server runs in and is built from, when `--server` names another checkout's build. */
  readonly serverCwd?: string;
  readonly serverEnv: Record<string, string>;
  readonly pgFast: boolean;
  /** Whether to take PostgreSQL's per-statement account of each window (pg_stat_statements). */
  readonly pgStatements: boolean;
}

export interface BotSettings {
  readonly seats: number;
  readonly questions: number;
  readonly secondsPerQuestion: number;
  readonly revealSeconds: number;
  readonly pause: HumanPause;
  readonly keepAliveMs: number;
  readonly commandTimeoutMs: number;
  readonly seed: number;
  /** The profile every bot socket asks for (`wire=`) and decodes. */
  readonly wire: WireProfile;
}

export function targetSettings(o: Options, cwd: string): TargetSettings {
  const url = o.string('url');
  const dbDelayMs = o.number('db-delay-ms', 0, 0, 10_000);
  if (url && dbDelayMs > 0) throw new UsageError('--db-delay-ms needs the bench to start the server; it cannot be combined with --url');
  const serverEnv = parseEnvList(o.string('server-env'));
  const poolMax = o.string('pool-max');
  if (poolMax) serverEnv.DB_POOL_MAX = poolMax;
  const cmd = o.string('server-cmd');
  const script = serverScript(o.string('server'), cwd);
  if (script && cmd) throw new UsageError('--server and --server-cmd both say how to start the server: give one');
  if (script && url) throw new UsageError('--server needs the bench to start the server; it cannot be combined with --url');
  if (o.string('instance-urls') && !url) throw new UsageError('--instance-urls goes with --url (the proxy in front of them)');
  return {
    url: url?.replace(/\/$/, ''),
    instanceUrls: (o.string('instance-urls') ?? '')
      .split(',')
      .map((u) => u.trim().replace(/\/$/, ''))
      .filter(Boolean),
    databaseUrl: o.string('database-url'),
    dbDelayMs,
    serverCommand: cmd ? splitWords(cmd) : script ? [process.execPath, script] : defaultServerCommand(cwd),
    ...(script ? { serverCwd: checkoutOf(script) } : {}),
    serverEnv,
    pgFast: o.flag('pg-fast'),
    pgStatements: o.flag('pg-statements'),
  };
}

/**
 * Reads `--server PATH`: another checkout's built server (its `main.js`), so that this bench can
 * measure an older build beside this one. The server runs in its own checkout, so /health names that
 * tree's sha.
 */
function serverScript(path: string | undefined, cwd: string): string | undefined {
  if (path === undefined) return undefined;
  const script = resolve(cwd, path);
  if (!script.endsWith('.js') || !existsSync(script))
    throw new UsageError(
      `--server takes the path of a built server's main.js, and ${script} is not one (build it in its checkout: npx nest build game-server)`,
    );
  return script;
}

export function botSettings(
  o: Options,
  d: { seats: number; questions: number; secondsPerQuestion: number; revealSeconds: number; pingSeconds: number },
): BotSettings {
  return {
    seats: o.number('seats', d.seats, 1, 100),
    questions: o.number('questions', d.questions, 1, 50),
    secondsPerQuestion: o.number('seconds-per-question', d.secondsPerQuestion, 0.2, 300),
    revealSeconds: o.number('reveal-seconds', d.revealSeconds, 0, 60),
    pause: {
      baseMs: o.number('pause-ms', HUMAN_PAUSE.baseMs, 0, 60_000),
      spreadMs: o.number('pause-spread-ms', HUMAN_PAUSE.spreadMs, 0, 60_000),
    },
    keepAliveMs: o.number('ping-seconds', d.pingSeconds, 0, 3600) * 1000,
    commandTimeoutMs: o.number('command-timeout-ms', 10_000, 100, 600_000),
    seed: o.number('seed', 1, 0, 2 ** 31),
    wire: wireOption(o),
  };
}

/** The profiles `--wire` takes, as a usage message names them: "json, compact-v1, ... or compact-v3". */
export const WIRE_WORDS = `${WIRE_PROFILES.slice(0, -1).join(', ')} or ${WIRE_PROFILES[WIRE_PROFILES.length - 1]}`;

/** Reads `--wire <profile>` for the trivia bots. A run uses one profile. */
function wireOption(o: Options): WireProfile {
  const word = o.string('wire', 'json');
  const wire = wireProfileOf(word);
  if (!wire) throw new UsageError(`--wire takes ${WIRE_WORDS}, got '${word}'`);
  return wire;
}

/** Returns what every mode hands each room's bots from the settings it read. */
export function roomBotOptions(
  bots: BotSettings,
): Pick<
  TriviaRoomBotOptions,
  'seats' | 'questionCount' | 'secondsPerQuestion' | 'revealSeconds' | 'pause' | 'commandTimeoutMs' | 'keepAliveMs' | 'wire'
> {
  return {
    seats: bots.seats,
    questionCount: bots.questions,
    secondsPerQuestion: bots.secondsPerQuestion,
    revealSeconds: bots.revealSeconds,
    pause: bots.pause,
    commandTimeoutMs: bots.commandTimeoutMs,
    keepAliveMs: bots.keepAliveMs,
    wire: bots.wire,
  };
}

/** Records are written to their file in chunks of about this many characters. */
const RECORDS_CHUNK_CHARS = 256 * 1024;

/**
 * One bench run. It owns its output folder, the JSONL of records, and the database and server it
 * started (or the URL it was given). It cleans all of that up, also on Ctrl-C.
 */
export class BenchRun {
  readonly records: CommandRecord[] = [];
  readonly abort = new AbortController();
  readonly startedAt = new Date();
  readonly workDir: string;
  db?: DatabaseSide;
  server?: ServerSide;
  /** How the server's build compares with its sources, when the bench starts a built script. */
  build?: BuildFreshness;
  /** Where the server's database link goes instead of the run's own database, for a mode with a proxy of its own. */
  databaseOverride?: string;
  private readonly jsonl: Writable;
  private readonly file: WriteStream;
  /** The JSONL's file name in the output folder. */
  readonly recordsFile: string;
  private closed = false;
  /** Lines not yet handed to the file. They are written once per chunk, not once per record (see `record`). */
  private unwritten: string[] = [];
  private unwrittenChars = 0;
  private servers = 0;
  private readonly tags: Record<string, string | number> = {};
  /** With --url: the server and PostgreSQL processes found on this machine (findLocalProcesses). */
  private found: { server?: number; postgres?: number } = {};

  constructor(
    readonly out: string,
    readonly target: TargetSettings,
    readonly cwd: string,
    gzipRecords = false,
  ) {
    mkdirSync(out, { recursive: true });
    // A ladder makes hundreds of thousands of records, so gzip keeps the run's folder small. The
    // records are never committed (see .gitignore, and UNCOMMITTED_SUFFIXES in report.ts).
    this.recordsFile = gzipRecords ? 'records.jsonl.gz' : 'records.jsonl';
    this.file = createWriteStream(join(out, this.recordsFile));
    if (gzipRecords) {
      const gz = createGzip();
      gz.pipe(this.file);
      this.jsonl = gz;
    } else {
      this.jsonl = this.file;
    }
    this.workDir = mkdtempSync(join(tmpdir(), 'game-bench-'));
    // Every room and every bot's pause listens for the end of the run.
    setMaxListeners(0, this.abort.signal);
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get baseUrl(): string {
    const url = this.target.url ?? this.server?.url;
    if (!url) throw new Error('no server: start one first');
    return url;
  }

  /** Adds a tag to every record from now on (rung, arm...). An undefined value removes it. */
  setTag(name: string, value: string | number | undefined): void {
    if (value === undefined) delete this.tags[name];
    else this.tags[name] = value;
  }

  /** Takes each record into memory (for the report) and writes it as one JSON line. */
  readonly record: RecordSink = (r) => {
    const line: CommandRecord = {
      ...r,
      sentAt: Math.round(r.sentAt * 1000) / 1000,
      ms: Math.round(r.ms * 1000) / 1000,
      ...this.tags,
    };
    this.records.push(line);
    if (this.closed) return;
    // A ladder makes thousands of records a second. One write per record (one zlib job per record,
    // with --gzip-records) cost the bench a sixth of its CPU at 2,000 rooms, and the server then
    // lacked that CPU. So records are written in chunks.
    const text = JSON.stringify(line) + '\n';
    this.unwritten.push(text);
    this.unwrittenChars += text.length;
    if (this.unwrittenChars >= RECORDS_CHUNK_CHARS) this.writeRecords();
  };

  private writeRecords(): void {
    if (this.unwritten.length === 0) return;
    this.jsonl.write(this.unwritten.join(''));
    this.unwritten = [];
    this.unwrittenChars = 0;
  }

  /** Starts PostgreSQL and the proxy unless a URL was given. */
  async startDatabase(): Promise<void> {
    if (this.target.url) return;
    log(
      `starting PostgreSQL${this.target.dbDelayMs ? ` behind a ${this.target.dbDelayMs} ms delay proxy (each way)` : ''} in ${this.workDir}`,
    );
    this.db = await startDatabase({
      workDir: this.workDir,
      delayMs: this.target.dbDelayMs,
      fast: this.target.pgFast,
      statements: this.target.pgStatements,
    });
    if (this.target.pgStatements) await installPgStatements(this.db.directUrl);
  }

  /** Starts (or restarts) the server on the run's database. */
  async startServer(
    command = this.target.serverCommand,
    env: Record<string, string> = this.target.serverEnv,
  ): Promise<ServerSide | undefined> {
    if (this.target.url) return undefined;
    if (!this.db) await this.startDatabase();
    await this.stopServer();
    const n = ++this.servers;
    const script = command.find((c) => c.endsWith('.js'));
    const cwd = this.target.serverCwd ?? this.cwd;
    this.build = script ? buildFreshness(cwd, script) : undefined;
    if (this.build?.stale) {
      log(
        `warning: the server build (${this.build.builtAt.toISOString()}) is older than ${this.build.newestSource!.file} (${this.build.newestSource!.at.toISOString()}); rebuild it (npx nest build game-server) or the report measures old code under a new sha`,
      );
    }
    log(
      `starting the server: ${command.map((c) => (c === process.execPath ? 'node' : relative(this.cwd, c).startsWith('..') ? c : relative(this.cwd, c))).join(' ')}${
        Object.keys(env).length
          ? ` with ${Object.entries(env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      }`,
    );
    this.server = await startServer({
      command,
      cwd,
      databaseUrl: this.databaseOverride ?? this.db!.serverUrl,
      dataDir: join(this.workDir, 'server'),
      env,
      logFile: join(this.out, n === 1 ? 'server.log' : `server-${n}.log`),
    });
    this.db!.watch(this.server.pid);
    log(`server up at ${this.server.url} (pid ${this.server.pid})`);
    return this.server;
  }

  async stopServer(): Promise<void> {
    const s = this.server;
    if (!s) return;
    await s.stop();
  }

  /** Measures the distances: the build, the yardstick, the TCP connects and the client hop. */
  async distances(): Promise<Distances> {
    const yardstick = this.db
      ? {
          databaseUrl: this.db.serverUrl,
          path:
            this.db.delayMs > 0
              ? `through the ${this.db.delayMs} ms delay proxy, as the server's queries go`
              : "direct over loopback, as the server's queries go",
        }
      : this.target.databaseUrl
        ? { databaseUrl: this.target.databaseUrl, path: 'to --database-url from the bench (assumed to be the path the server uses)' }
        : { path: '', skipped: 'skipped: --url was given without --database-url' };
    log('measuring the distances (build, 20 x select 1, TCP connects, WebSocket pings)');
    return measureDistances(this.baseUrl, yardstick);
  }

  usageMeter(): UsageMeter {
    return new UsageMeter({
      server: this.serverPid,
      postgres: this.db?.postmasterPid ?? this.found.postgres,
      proxy: this.db && this.db.delayMs > 0 ? this.db.helperPid : undefined,
    });
  }

  /**
   * The server's pid when it runs on this machine: the one this run started, or the one that the
   * /health of --url named.
   */
  get serverPid(): number | undefined {
    return this.server?.pid ?? this.found.server;
  }

  /**
   * With --url, finds the processes to measure when they run on this machine: the server's pid from
   * /health, and PostgreSQL's postmaster (the parent of a backend of --database-url). A process that
   * runs elsewhere is left out, and the report then shows no CPU for it.
   */
  async findLocalProcesses(): Promise<{ server?: number; postgres?: number }> {
    if (!this.target.url) return {};
    const health = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.json() as Promise<{ pid?: unknown }>)
      .catch(() => ({ pid: undefined }));
    const server = typeof health.pid === 'number' && cpuSeconds(health.pid) !== undefined ? health.pid : undefined;
    let postgres: number | undefined;
    if (this.target.databaseUrl) {
      const client = new Client({ connectionString: this.target.databaseUrl });
      try {
        await client.connect();
        const backend = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        const postmaster = parentPid(backend);
        postgres = postmaster !== undefined && cpuSeconds(postmaster) !== undefined ? postmaster : undefined;
      } catch {
        postgres = undefined;
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    this.found = { server, postgres };
    if (server || postgres)
      log(
        `measuring CPU of the processes on this machine: ${server ? `server pid ${server}` : 'no server'}, ${postgres ? `PostgreSQL pid ${postgres}` : 'no PostgreSQL'}`,
      );
    return this.found;
  }

  /**
   * Takes a /metrics snapshot. With a name, its text is kept as metrics/<name>.prom, so that the
   * server figures can be checked.
   */
  async snapshot(name?: string, baseUrl = this.baseUrl): Promise<MetricsSnapshot> {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(30_000) });
    if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
    const text = await res.text();
    if (name) {
      mkdirSync(join(this.out, 'metrics'), { recursive: true });
      writeFileSync(join(this.out, 'metrics', `${name}.prom`), text);
    }
    return new MetricsSnapshot(text);
  }

  /** Returns the difference between two snapshots, or why it is refused. */
  static delta(before: MetricsSnapshot | undefined, after: MetricsSnapshot | undefined): { delta?: MetricsDelta; refused?: string } {
    if (!before || !after) return { refused: 'a /metrics snapshot could not be taken' };
    try {
      return { delta: MetricsDelta.between(before, after) };
    } catch (err) {
      return { refused: err instanceof Error ? err.message : String(err) };
    }
  }

  writeFile(name: string, content: string): void {
    writeFileSync(join(this.out, name), content);
  }

  /** Stops everything the run started and removes its temporary files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const flushed = new Promise<void>((r) => this.file.once('close', () => r()));
    this.writeRecords();
    this.jsonl.end();
    await flushed;
    try {
      await this.stopServer();
    } finally {
      await this.db?.stop();
      rmSync(this.workDir, { recursive: true, force: true });
    }
  }

  /** Facts about the machine, for the report's confounds. */
  static machine(): string {
    const c = cpus();
    return `${c.length} CPU core(s) (${c[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB memory, Node.js ${process.version}`;
  }

  /** The file system the temporary database lives on. */
  static fsOf(path: string): string {
    try {
      const mounts = readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((l) => l.split(' '))
        .filter((f) => f.length > 2 && resolve(path).startsWith(f[1]))
        .sort((a, b) => b[1].length - a[1].length);
      return mounts[0] ? `${mounts[0][2]} (mounted at ${mounts[0][1]})` : 'unknown';
    } catch {
      return 'unknown';
    }
  }
}

export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

export function defaultOut(cwd: string, mode: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return resolve(cwd, 'bench', 'runs', `${mode}-${stamp}`);
}
