/** Parses the command line, `<mode> [--name value | --name=value | --flag]...`, with nothing clever. */

export const MODES = ['latency', 'ladder', 'ab', 'soak', 'outage', 'tables', 'failover', 'steady', 'overload', 'storage'] as const;
export type Mode = (typeof MODES)[number];

export class UsageError extends Error {}

export interface ParsedArgs {
  readonly mode: string;
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
}

/** Options that take no value. */
const FLAGS = new Set(['help', 'pg-fast', 'pg-statements', 'no-plots', 'gzip-records', 'rolling']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [mode, ...rest] = argv[0]?.startsWith('--') ? ['', ...argv] : argv;
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}' (options start with --)`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (FLAGS.has(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    values.set(name, value);
  }
  return { mode: mode ?? '', values, flags };
}

/** Typed access to the options. It remembers which options were read, so that unknown ones are refused. */
export class Options {
  private readonly read = new Set<string>();

  constructor(private readonly args: ParsedArgs) {}

  string(name: string, fallback: string): string;
  string(name: string): string | undefined;
  string(name: string, fallback?: string): string | undefined {
    this.read.add(name);
    return this.args.values.get(name) ?? fallback;
  }

  number(name: string, fallback: number, min = -Infinity, max = Infinity): number {
    this.read.add(name);
    const raw = this.args.values.get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max) throw new UsageError(`--${name} must be a number in [${min}, ${max}], got '${raw}'`);
    return n;
  }

  numbers(name: string, fallback: readonly number[]): number[] {
    this.read.add(name);
    const raw = this.args.values.get(name);
    if (raw === undefined) return [...fallback];
    const list = raw.split(',').map((s) => Number(s.trim()));
    if (!list.length || list.some((n) => !Number.isInteger(n) || n <= 0))
      throw new UsageError(`--${name} must be a comma-separated list of positive whole numbers, got '${raw}'`);
    return list;
  }

  flag(name: string): boolean {
    this.read.add(name);
    return this.args.flags.has(name);
  }

  /** Throws for any option that was given but that the mode never read. */
  assertAllUsed(): void {
    const unknown = [...this.args.values.keys(), ...this.args.flags].filter((k) => !this.read.has(k));
    if (unknown.length)
      throw new UsageError(`unknown option${unknown.length > 1 ? 's' : ''} for this mode: ${unknown.map((k) => `--${k}`).join(', ')}`);
  }
}

/** Parses `A=1 B="x y"` into {A: '1', B: 'x y'}. */
export function parseEnvList(text: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of splitWords(text ?? '')) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected NAME=value, got '${word}'`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}

/** Splits a command line on spaces, keeping "quoted parts" together (quotes removed). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current ??= '';
    } else if (/\s/.test(ch)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else {
      current = (current ?? '') + ch;
    }
  }
  if (quote) throw new UsageError(`unbalanced ${quote} in '${text}'`);
  if (current !== undefined) words.push(current);
  return words;
}

/** The command as a user would type it, for the report. */
export function commandLine(argv: readonly string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return ['npm run bench --', ...argv.map(quote)].join(' ');
}

export const USAGE = `usage: npm run bench -- <mode> [options]

modes
  latency   games one after another          --games 5 --seats 3 --questions 10
  ladder    rungs of concurrent rooms         --rungs 10,50,100,250,500,1000,1250,1500,2000 --hold-seconds 30
            per rung: CPU ms, syscalls and bytes to sockets per answer, RSS per socket   --wire compact-v2
  ab        two servers, arms A B A B         --a-env "DB_POOL_MAX=2" --b-env "DB_POOL_MAX=10" --rounds 2 --games 2
  soak      rooms playing for a while         --minutes 10 --rooms 20
  outage    PostgreSQL refused, then silent   --trials 3 --outage-ms 6000 (what a game and /api are told meanwhile)
                                              --refused-ms 30000 --silent-ms 20000 (a game through each: sockets kept?)
  failover  a cluster, kill -9 during play    --instances 3 --games 30 --seats 4 --kill-after-s 10 --kill busiest
            or a rolling restart of it        --rolling --instances 3 --games 30 --seats 4 --kill-after-s 8
  storage   what games leave in PostgreSQL    --games 200 --seats 8 --questions 10 --concurrency 20 --games-per-day 10000
            then a month passes (the rooms' and games' times moved 31 days back) and the pruning runs (--no-prune: not)
  tables    card tables, seed 003's workload  --tables 100 --seconds 60 --shards 4 --wire json
            or a ladder of them               --ladder 150,200,300,500,1000 --wire json,compact-v2,compact-v3 --egress-mbps 2
  steady    rooms answering in a steady       --rooms 40 --questions 4 --db-delay-ms 30
            stream, every reply checked       --starve 2.5: the server frozen (SIGSTOP) 2.5 s once per question
  overload  rooms offered past capacity       --capacity N (or a ladder: --rungs 50,100,200,..) --factor 2 --overload-seconds 30

tables (each table: POST /api/tables, five server bots, one simulated human on one socket)
  --tables N | --ladder N1,N2,..           one run, or rungs (every profile at every rung, interleaved)
  --seconds S (60)      the steady window of each run or cell; --ramp-seconds R (10, or tables/50 + 6)
  --shards K (4, at most the cores)        child processes the sockets are split over
  --wire P[,P..]        json, compact-v1, compact-v2, compact-v3 (several: each at every rung, same sitting)
  --egress-mbps M       a token-bucket shaper limits the server's outbound bytes to M Mbit/s
  --shaper-buffer-kib 64                   the shaper's queue per connection
  --knee-ms 250         a ladder's knee: first rung with action p99 over this, an eviction, or a failed action
  --bots 5 --bot-think-ms 400,1500 --hand-pause-ms 2000 --action-seconds 15   the tables' settings
  --pause-ms / --pause-spread-ms           the human's pause before acting (300 + up to 3,200 ms)

failover (starts npm run cluster itself; every room plays through its proxy; exits non-zero on a loss)
  --instances N (3)     --games N (30): rooms playing at once, one game each, --stagger-ms 100 apart
  --kill-after-s S (10) from the first room's opening; --kill busiest|instance-N (busiest: most of the run's rooms)
  --rolling             instead of a kill, restart every instance in turn (it drains, then starts again), from
                        --kill-after-s once every game has started; exits non-zero on a loss or a dropped game
  --rolling-gap-s 2     between one instance serving again through the proxy and the next one's restart
  --lease-seconds S     LEASE_SECONDS for the instances (default: the server's, 6); --cluster-env "K=V .." more
  --resume-timeout-s 60 a seat that cannot get back in for this long gives up
  defaults here: --questions 8 --seconds-per-question 5 --reveal-seconds 1 --ping-seconds 0

steady and overload (every answer sent once; one not acknowledged is resent under its id after its
question closed: a 200 then means the first reply lied; sockets the server closes are opened again)
  --rooms N (40)        steady: rooms, opened --ramp-per-second 10, every game started at once
  --starve S            steady: freeze the server S seconds once per question, mid-stream (SIGSTOP, then SIGCONT)
  --starve-at 0.5       the share of a question's answers sent before its freeze
  --starve-delay-ms M   from that answer to the freeze (default: the database delay + 5 ms)
  --capacity N          overload: the rooms the server holds within the budget (an earlier ladder's), or
  --rungs N1,N2,..      a ladder that finds it: the first rung whose answer p99 passes --budget-ms 50
  --factor 2            new rooms are offered until factor x capacity are live, --offer-per-second 20
  --hold-seconds 20     each rung's (or the capacity's) window; --settle-seconds 5; --overload-seconds 30
  defaults: steady --questions 4 --seconds-per-question 10 --reveal-seconds 1; overload as the ladder

where the server is
  (default)             the bench starts PostgreSQL (embedded, fresh data dir), an optional delay
                        proxy, and the built server (npx nest build game-server first)
  --db-delay-ms N       put a TCP delay proxy of N ms each way between the server and PostgreSQL
  --url URL             measure a server already running instead (no proxy)
  --database-url URL    with --url: the database, for the select-1 yardstick (skipped without it)
  --instance-urls A,B   with --url of a cluster's proxy: each instance's own URL; the report gives figures per instance (npm run cluster prints them)
  --server-cmd CMD      how to start the server (default: node dist/apps/game-server/apps/game-server/src/main.js)
  --server PATH         another checkout's built server (its main.js), run in that checkout (an older build)
  --server-env "K=V .." extra environment for the server (e.g. "DB_POOL_MAX=20 MAILBOX_DEPTH=64")
  --pool-max N          DB_POOL_MAX for the server
  --pg-fast             PostgreSQL with fsync and synchronous_commit off (default: durable, as in production)
  --pg-statements       PostgreSQL with pg_stat_statements; the ladder's report lists each window's costliest statements

bots
  --seats N --questions N --seconds-per-question S --reveal-seconds S
  --pause-ms 300 --pause-spread-ms 3200    thinking time before each answer: base plus up to spread
  --ping-seconds S      each socket pings this often (0: never)
  --command-timeout-ms 10000               a command without a reply after this is timed out
  --seed N              seed for the bots' pauses and choices
  --wire P              json (default), compact-v1, compact-v2 or compact-v3: every bot socket asks for it and
                        decodes each frame back into JSON (latency, ladder, ab, soak; tables has its own)

output
  --out DIR             where report.md, records.jsonl and the SVGs go (default bench/runs/<mode>-<time>)
  --title TEXT          the report's title
  --gzip-records        write records.jsonl.gz instead of records.jsonl (ladders make many records)
  --no-plots            no SVGs
`;
