import { isIP } from 'node:net';
import { z } from 'zod';
import { secretProblem } from './secrets';

export interface Variable<T = unknown> {
  readonly schema: z.ZodType<T, string | undefined>;
  /** What the variable accepts, in the words that the refusal and the README use. */
  readonly accepts: string;
  /** How a refusal shows the value given: a secret is never shown, and a URL is shown without its password. */
  readonly shown?: 'secret' | 'url';
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

// An empty variable counts as unset, because compose passes `${ADMIN_TOKEN:-}` through as ''.
const unset = (v: unknown) => (v === '' ? undefined : v);

function variable<T>(accepts: string, schema: z.ZodType<T, string>, fallback: T, shown?: Variable['shown']): Variable<T>;
function variable<T>(
  accepts: string,
  schema: z.ZodType<T, string>,
  fallback?: undefined,
  shown?: Variable['shown'],
): Variable<T | undefined>;
function variable<T>(accepts: string, schema: z.ZodType<T, string>, fallback?: T, shown?: Variable['shown']): Variable<T | undefined> {
  // A list's default is a fresh array each time, so that no two configurations share one array.
  const fresh = () => (Array.isArray(fallback) ? ([...fallback] as T) : fallback);
  const optional = fallback === undefined ? schema.optional() : schema.optional().transform((v) => (v === undefined ? fresh() : v));
  return { accepts, shown, schema: z.preprocess(unset, optional) as unknown as z.ZodType<T | undefined, string | undefined> };
}

/**
 * A whole number in a range, written in digits only. `1e3`, `0x10`, ` 8` and `2.5` are refused
 * rather than read as something else.
 */
function whole(min: number, max: number, fallback: number, also = ''): Variable<number> {
  const accepts = `a whole number from ${min} to ${max}${also}`;
  return variable(
    accepts,
    z
      .string()
      .regex(/^\d{1,15}$/, accepts)
      .transform(Number)
      .pipe(z.number().min(min, accepts).max(max, accepts)),
    fallback,
  );
}

/** A string that matches `pattern` whole. */
function matching(accepts: string, pattern: RegExp): Variable<string | undefined>;
function matching(accepts: string, pattern: RegExp, fallback: string): Variable<string>;
function matching(accepts: string, pattern: RegExp, fallback?: string): Variable<string | undefined> {
  return variable(accepts, z.string().regex(pattern, accepts), fallback);
}

/**
 * A comma-separated list. Each entry is trimmed, empty entries are dropped, and each entry is
 * checked by `problem`, which returns a message, or undefined when the entry is fine.
 */
function list(accepts: string, problem: (entry: string) => string | undefined): Variable<string[]> {
  const schema = z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const p = problem(entry);
        if (p) ctx.addIssue({ code: 'custom', message: p });
      }
    });
  return variable(accepts, schema, []);
}

function secret(): Variable<string | undefined> {
  const schema = z.string().superRefine((v, ctx) => {
    const p = secretProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: p });
  });
  return variable('32 or more characters, not a placeholder published in this repository', schema, undefined, 'secret');
}

function url(accepts: string, protocols: readonly string[], shown?: Variable['shown']): Variable<string | undefined> {
  const schema = z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, accepts);
  return variable(accepts, schema, undefined, shown);
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

// Proxy entries are checked here, not left to Express, because a wrong entry would otherwise fail
// only at the first request.
function proxyProblem(entry: string): string | undefined {
  if (PROXY_KEYWORDS.has(entry)) return undefined;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  const bits = family === 6 ? 128 : 32;
  const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
  return family === 0 || !prefixOk || rest.length > 0 ? `'${entry}' is not an IP address, a CIDR or a keyword` : undefined;
}

// The browser's Origin header is compared as a whole, so `https://a.example/` (with a slash) would never match.
function originProblem(entry: string): string | undefined {
  try {
    const u = new URL(entry);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === entry) return undefined;
  } catch {
    // The entry is not a URL at all.
  }
  return `'${entry}' is not an origin`;
}

// An instance's name labels it in the registry, the console and /health, so the name is short and
// plain enough to read in a log.
const INSTANCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * The server's environment as one zod schema. Each variable comes with its default and what it
 * accepts, and this is the one place where both are written. readConfig parses the environment
 * with it, and server-config.spec.ts checks the README's configuration table against it.
 */
export const SERVER_ENV = {
  PORT: whole(0, 65535, 3000),
  // When this is unset, /metrics and /admin are served on PORT with the rest (see the README,
  // "Watching it").
  OPERATOR_PORT: variable(
    'a whole number from 0 to 65535',
    z
      .string()
      .regex(/^\d{1,5}$/, 'a whole number from 0 to 65535')
      .transform(Number)
      .pipe(z.number().max(65535, 'a whole number from 0 to 65535')),
  ),
  HOST: matching('an address or host name to listen on (no spaces)', /^\S+$/, '0.0.0.0'),
  DATABASE_URL: url('a postgres:// or postgresql:// URL', ['postgres:', 'postgresql:'], 'url'),
  // PostgreSQL's own address, for when DATABASE_URL is a transaction pooler's (like Prisma's `directUrl`).
  DATABASE_DIRECT_URL: url('a postgres:// or postgresql:// URL, with DATABASE_URL set', ['postgres:', 'postgresql:'], 'url'),
  DATA_DIR: variable('a folder', z.string(), '.data'),
  ADMIN_TOKEN: secret(),
  TOKEN_SECRET: secret(),
  ALLOWED_ORIGINS: list('comma-separated origins (http[s]://host[:port], no path)', originProblem),
  // The pool and the commit lanes are connections to PostgreSQL, whose max_connections (100 by
  // default) bounds them across all instances. A size of 0 would make every statement wait forever.
  DB_POOL_MAX: whole(1, 1000, 10),
  DB_COMMIT_LANES: whole(1, 256, 16),
  // This is longer than a statement may run (COMMAND_TIMEOUT_MS), so that a lane is reset only when
  // PostgreSQL is silent, not when it is slow.
  DB_SILENCE_MS: whole(500, 600_000, 3000),
  // 0 leaves V8 to choose its own growth (up to 4 times what survived, when memory looks ample).
  // See heap-growth.ts.
  HEAP_GROWING_PERCENT: whole(0, 300, 0),
  // A depth of 0 would refuse every command with 503.
  MAILBOX_DEPTH: whole(1, 10_000, 64),
  PIPELINE_DEPTH: whole(1, 64, 8),
  // How many bytes of JSON a room remembers of the replies it gave, so that it can resend them
  // (README, "Limits"), and the most that one seat's share may be.
  REPLY_MEMORY_ROOM_BYTES: whole(1024, 16 * 1024 * 1024, 64 * 1024),
  REPLY_MEMORY_SEAT_BYTES: whole(256, 16 * 1024 * 1024, 8 * 1024, ', at most REPLY_MEMORY_ROOM_BYTES'),
  PASSIVATE_AFTER_SECONDS: whole(1, 86_400, 60),
  // Below the minimum of 10 seconds, a room could close before its host has shared the code.
  ROOM_EXPIRY_SECONDS: whole(10, 7 * 86_400, 300),
  // Statements get 100 ms less than this, so each statement gets at least 100 ms.
  COMMAND_TIMEOUT_MS: whole(200, 60_000, 1000),
  // The queue must hold at least a room's largest frame (a state of 50 seats), or a client would be
  // evicted on its first such frame.
  SEND_QUEUE_BYTES: whole(65_536, 64 * 1024 * 1024, 256 * 1024),
  SEND_QUEUE_FRAMES: whole(16, 1_000_000, 1024),
  // A quiet socket is pinged after 20 s, which is under the 60 s idle timeout of common proxies. It
  // then has 30 s to answer, long enough for a train's tunnel. So a vanished peer is let go within
  // 60 s (README, "Limits").
  SOCKET_PING_IDLE_MS: whole(100, 3_600_000, 20_000),
  SOCKET_PONG_TIMEOUT_MS: whole(100, 3_600_000, 30_000),
  INSTANCE_NAME: matching("1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit", INSTANCE_NAME),
  INSTANCE_URL: url('an http:// or https:// URL', ['http:', 'https:']),
  // With 0, the instance's row is written once at start and once at stop.
  INSTANCE_HEARTBEAT_SECONDS: whole(0, 3600, 2),
  LEASE_SECONDS: whole(1, 86_400, 6, ', at least twice INSTANCE_HEARTBEAT_SECONDS'),
  OPEN_RATE_PER_MINUTE: whole(0, 100_000, 30),
  OPEN_BURST: whole(1, 100_000, 30),
  TRUSTED_PROXIES: list('comma-separated IP addresses, CIDRs (address/bits) or loopback, linklocal, uniquelocal', proxyProblem),
  SOCKETS_PER_SEAT: whole(1, 100, 3),
  MAX_LIVE_ROOMS: whole(0, 1_000_000, 5000),
  // Limits per client address, each over a window of one minute (0 means no limit), and the cap on
  // how many addresses each table holds.
  JOINS_PER_MINUTE: whole(0, 100_000, 60),
  DECK_WRITES_PER_MINUTE: whole(0, 100_000, 20),
  LOOKUPS_PER_MINUTE: whole(0, 100_000, 300),
  SPECTATORS_PER_MINUTE: whole(0, 100_000, 60),
  IMAGE_UPLOADS_PER_MINUTE: whole(0, 100_000, 60),
  ADDRESS_TABLE_ENTRIES: whole(100, 10_000_000, 100_000),
  // Limits on the same surfaces for the whole instance, from every address together. Each is a
  // minute's worth that refills evenly (0 means no limit). They sit well above what classrooms ask
  // of one instance, so that only a flood from many addresses meets them. The README's "Limits"
  // section says why each has its value.
  INSTANCE_OPENS_PER_MINUTE: whole(0, 1_000_000, 600),
  INSTANCE_JOINS_PER_MINUTE: whole(0, 1_000_000, 6000),
  INSTANCE_DECK_WRITES_PER_MINUTE: whole(0, 1_000_000, 60),
  INSTANCE_LOOKUPS_PER_MINUTE: whole(0, 1_000_000, 12_000),
  INSTANCE_SPECTATORS_PER_MINUTE: whole(0, 1_000_000, 1200),
  INSTANCE_IMAGE_UPLOADS_PER_MINUTE: whole(0, 1_000_000, 600),
  // The most spectator sockets one room holds, and the most sockets this instance holds (0 means no cap).
  SPECTATORS_PER_ROOM: whole(0, 1_000_000, 200),
  MAX_SOCKETS: whole(0, 10_000_000, 20_000),
  // Overload (PROTOCOL.md section 14): the level that each signal must hold through most of a second
  // before new work is shed. New work is admitted again once the signal is below half that level.
  // 0 turns the signal off. A checkout gives up at COMMAND_TIMEOUT_MS less 100 ms (and a commit
  // seldom lasts longer), so a wait's mark must sit below that to matter.
  OVERLOAD_EVENT_LOOP_DELAY_MS: whole(0, 60_000, 500),
  OVERLOAD_COMMIT_WAIT_MS: whole(0, 60_000, 500),
  OVERLOAD_POOL_WAIT_MS: whole(0, 60_000, 500),
  // New anonymous work (opening, joining, deck writes, lookups, spectator seats) is shed far earlier,
  // whenever the event loop runs this late. That is long before rooms already playing would notice.
  OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: whole(0, 60_000, 30),
  // The console's record of refused commands: how long it is kept, and how many one room may add a minute.
  REFUSALS_KEPT_DAYS: whole(1, 365, 7),
  REFUSALS_PER_ROOM_PER_MINUTE: whole(1, 100_000, 120),
  // Retention (README, "Retention"). RESULTS_KEPT_DAYS is how long a results link answers, and how
  // long a closed room's journal, snapshot and deck copy are kept. FINISHED_GAMES_KEPT_DAYS is how
  // long finished games are kept (0 means for ever). RETENTION_SWEEP_SECONDS and
  // RETENTION_BATCH_ROWS pace the pruning.
  RESULTS_KEPT_DAYS: whole(1, 3650, 30),
  FINISHED_GAMES_KEPT_DAYS: whole(0, 36_500, 30, ', 0 for ever; at least RESULTS_KEPT_DAYS'),
  // Hosts' decks that no room names and nobody has edited for this long are removed (0 keeps them for ever).
  DECKS_KEPT_DAYS: whole(0, 36_500, 30, ', 0 for ever'),
  RETENTION_SWEEP_SECONDS: whole(0, 86_400, 300),
  RETENTION_BATCH_ROWS: whole(1, 100_000, 1000),
  LOG_LEVEL: variable(`one of ${LOG_LEVELS.join(', ')}`, z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }), 'info'),
  // Only 1 turns this on and only 0 turns it off, because a typo such as `ALLOW_TEST_SEEDS=yes` must
  // not pass for either answer.
  ALLOW_TEST_SEEDS: variable(
    '1 or 0',
    z.enum(['0', '1'], { error: '1 or 0' }).transform((v) => v === '1'),
    false,
  ),
  // This variable is read where the game registry is built (apps/game-server/src/games.ts), before
  // this schema runs.
  ALLOW_TEST_GAMES: variable(
    '1 or 0',
    z.enum(['0', '1'], { error: '1 or 0' }).transform((v) => v === '1'),
    false,
  ),
} satisfies Record<string, Variable>;

export type ServerEnvName = keyof typeof SERVER_ENV;
type Parsed = { [K in ServerEnvName]: (typeof SERVER_ENV)[K] extends Variable<infer T> ? T : never };

const shape = Object.fromEntries(Object.entries(SERVER_ENV).map(([name, v]) => [name, v.schema])) as {
  [K in ServerEnvName]: z.ZodType<Parsed[K], string | undefined>;
};

/**
 * The schema of the whole environment. It checks every variable and reports all problems at once.
 * Then it checks the operator port against the public one, the lease against the heartbeat, the
 * direct URL against the URL, a seat's reply memory against the room's, and the finished games'
 * retention against the results link's.
 */
export const serverEnvSchema = z.object(shape).superRefine((env, ctx) => {
  if (env.OPERATOR_PORT !== undefined && env.OPERATOR_PORT !== 0 && env.OPERATOR_PORT === env.PORT) {
    ctx.addIssue({
      code: 'custom',
      path: ['OPERATOR_PORT'],
      message: 'is PORT itself; it must be another port, or unset to serve both on PORT',
    });
  }
  if (env.FINISHED_GAMES_KEPT_DAYS > 0 && env.FINISHED_GAMES_KEPT_DAYS < env.RESULTS_KEPT_DAYS) {
    ctx.addIssue({
      code: 'custom',
      path: ['FINISHED_GAMES_KEPT_DAYS'],
      message: `${env.FINISHED_GAMES_KEPT_DAYS} days (30 when unset) is shorter than the results link's life (RESULTS_KEPT_DAYS=${env.RESULTS_KEPT_DAYS}): set it to at least that, or 0 to keep them for ever`,
    });
  }
  if (env.INSTANCE_HEARTBEAT_SECONDS > 0 && env.LEASE_SECONDS < 2 * env.INSTANCE_HEARTBEAT_SECONDS) {
    ctx.addIssue({
      code: 'custom',
      path: ['LEASE_SECONDS'],
      message: `shorter than two heartbeats (INSTANCE_HEARTBEAT_SECONDS=${env.INSTANCE_HEARTBEAT_SECONDS}): a lease would run out between two renewals`,
    });
  }
  if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['DATABASE_DIRECT_URL'],
      message: 'set without DATABASE_URL: it is the direct address beside a pooler in DATABASE_URL, and the embedded PostgreSQL needs none',
    });
  }
  if (env.REPLY_MEMORY_SEAT_BYTES > env.REPLY_MEMORY_ROOM_BYTES) {
    ctx.addIssue({
      code: 'custom',
      path: ['REPLY_MEMORY_SEAT_BYTES'],
      message: `more than the whole room's (REPLY_MEMORY_ROOM_BYTES=${env.REPLY_MEMORY_ROOM_BYTES})`,
    });
  }
});

export type ServerEnv = z.output<typeof serverEnvSchema>;
