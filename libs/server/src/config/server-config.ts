import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ConfigError, ConfigProblem } from './config.error';
import { keptSecret } from './secrets';
import { LogLevel, SERVER_ENV, ServerEnv, serverEnvSchema, ServerEnvName } from './server-env.schema';

/**
 * Everything the server reads from its environment, with the defaults a newcomer wants
 * (server-env.schema.ts has each variable's default and what it accepts).
 */
export interface ServerConfig {
  readonly port: number;
  /**
   * Where /metrics and /admin (the console and its API) are served, apart from the players' port,
   * which then answers them 404. Unset: both on `port`, as before.
   */
  readonly operatorPort?: number;
  readonly host: string;
  /** Unset: the server starts an embedded PostgreSQL under DATA_DIR. */
  readonly databaseUrl?: string;
  /**
   * PostgreSQL itself, for what needs a session of its own (migrations, commit lanes, LISTEN, the
   * settling of lost answers) when `databaseUrl` is a transaction pooler's. Unset: `databaseUrl`.
   */
  readonly databaseDirectUrl?: string;
  readonly dataDir: string;
  readonly adminToken: string;
  /** True only on the start that generated it into `adminTokenFile` (shown once, and only on a terminal). */
  readonly adminTokenGenerated: boolean;
  /** Where a generated admin token is kept; unset when ADMIN_TOKEN came from the environment. */
  readonly adminTokenFile?: string;
  readonly allowedOrigins: string[];
  readonly tokenSecret: string;
  readonly poolMax: number;
  readonly mailboxDepth: number;
  /**
   * How many of a room's decisions may have statements in flight at once (pipelined commits);
   * 1 turns pipelining off: a batch then waits for the statement before it.
   */
  readonly pipelineDepth: number;
  /** How much of its replies a room remembers for resends, in bytes of JSON: in all, and for one seat. Unset: 64 KiB and 8 KiB. */
  readonly replyMemory?: { readonly roomBytes: number; readonly seatBytes: number };
  /** Pipelined connections that carry rooms' writes, each room always on the same one. */
  readonly commitLanes: number;
  /** How long PostgreSQL may say nothing on a commit lane with statements in flight before the lane is reset (ms of this process's waking time). */
  readonly silenceMs: number;
  /** How far V8 lets the heap grow past what the last full collection kept, in percent (0: V8's own choice). */
  readonly heapGrowingPercent: number;
  readonly passivateAfterMs: number;
  readonly roomExpirySeconds: number;
  /**
   * Every command, HTTP request and /health is answered within this many ms, whatever PostgreSQL
   * does (a silent outage gets 503 in time); statements get a little less.
   */
  readonly commandTimeoutMs: number;
  readonly logLevel: LogLevel;
  /** What a socket may have sent and its client not yet read before it is evicted with 4009. */
  readonly sendQueueBytes: number;
  readonly sendQueueFrames: number;
  /**
   * A socket quiet this long is pinged, and one that then answers nothing for `socketPongTimeoutMs`
   * is closed with 4011 (its seat shows disconnected). Unset: 20 s and 30 s.
   */
  readonly socketPingIdleMs?: number;
  readonly socketPongTimeoutMs?: number;
  /** This instance's stable name in the registry and on /health; unset: `<hostname>-<port>`. */
  readonly instanceName?: string;
  /** Where other instances and operators reach this one; unset: `http://<hostname>:<port>`. */
  readonly instanceUrl?: string;
  /** How often the instance writes its registry row and renews its leases; unset or 0: once at start and once at stop. */
  readonly heartbeatMs?: number;
  /**
   * How long a room's lease lasts unless renewed (PROTOCOL.md section 10): a dead instance's rooms
   * may be taken by another this long after its last beat. At least two beats.
   */
  readonly leaseMs?: number;
  /**
   * Opening rooms and tables, per client address: at most `openBurst` in a window of
   * `openBurst / openRatePerMinute` minutes, so `openRatePerMinute` on average. 0: no limit.
   */
  readonly openRatePerMinute: number;
  readonly openBurst: number;
  /**
   * Peers whose `X-Forwarded-For` names the client (Express's `trust proxy`): addresses, CIDRs or
   * `loopback`, `linklocal`, `uniquelocal`. Empty: the client is the TCP peer, the header is ignored.
   */
  readonly trustedProxies: string[];
  /** Open sockets one seat token may hold; the newest wins, the oldest past it closes with 4010. */
  readonly socketsPerSeat: number;
  /** Live rooms and tables this instance holds; past it opening and activating get 503. 0: no cap. */
  readonly maxLiveRooms: number;
  /**
   * Per client address, in a window of one minute (0: no limit): joins, deck creations and imports,
   * room lookups, spectator seats asked for; past one, 429 `rate_limited` with Retry-After.
   */
  readonly joinsPerMinute: number;
  readonly deckWritesPerMinute: number;
  readonly lookupsPerMinute: number;
  readonly spectatorsPerMinute: number;
  /** Addresses each per-address table holds at most; past it the least recently seen goes. */
  readonly addressTableEntries: number;
  /**
   * The same surfaces counted for the whole instance, from every address together: each a token
   * bucket of a minute's worth that refills evenly (0: no limit); past one, 503 `overloaded` with Retry-After.
   */
  readonly instanceOpensPerMinute: number;
  readonly instanceJoinsPerMinute: number;
  readonly instanceDeckWritesPerMinute: number;
  readonly instanceLookupsPerMinute: number;
  readonly instanceSpectatorsPerMinute: number;
  /**
   * The minute of every per-minute budget above (per address and per instance), in seconds (60);
   * tests lengthen it so that no window ends, and no token comes back, mid-test.
   */
  readonly addressWindowSeconds?: number;
  /** Spectator sockets one room holds; past it a new spectator seat or socket is refused (429). 0: no cap. */
  readonly spectatorsPerRoom: number;
  /** Sockets this instance holds; past it an upgrade gets 503 with Retry-After. 0: no cap. */
  readonly maxSockets: number;
  /**
   * Overload (PROTOCOL.md section 14): new work is shed once a signal holds its mark through most
   * of a second, and admitted again once every signal is below half its mark. 0 turns a signal off.
   */
  readonly overloadEventLoopDelayMs: number;
  readonly overloadCommitWaitMs: number;
  readonly overloadPoolWaitMs: number;
  /**
   * New anonymous work (opening, joining, deck writes, lookups, spectator seats) is shed while the
   * event loop's delay holds this mark, with the same hysteresis; 0 turns this mark off.
   */
  readonly overloadAnonymousEventLoopDelayMs: number;
  /** Refused commands are kept this many days for the console (`refused_commands`); unset: 7. */
  readonly refusalsKeptDays?: number;
  /** Refusals one room may add to that record per minute; the rest are counted as dropped. Unset: 120. */
  readonly refusalsPerRoomPerMinute?: number;
  /**
   * How long a results link answers, and how long after a room closed its journal, snapshot and
   * deck copy are kept (README, "Retention"). Unset: 30 days.
   */
  readonly resultsKeptDays?: number;
  /** How long finished games are kept (the console's history, the leaderboard); 0: for ever. Unset: 30 days. */
  readonly finishedGamesKeptDays?: number;
  /** Hosts' decks no room names and nobody edited for this many days are removed; 0: kept for ever. Unset: 30 days. */
  readonly decksKeptDays?: number;
  /** How often this instance prunes what is past its retention; unset or 0: it does not. */
  readonly retentionSweepMs?: number;
  /** The most rows (or rooms) one pruning statement removes. Unset: 1000. */
  readonly retentionBatchRows?: number;
  /** A server started for tests: a `seed` in an opening body is honoured (refused with 400 otherwise). */
  readonly allowTestSeeds: boolean;
  /** Serve the games that live only in tests (`TEST_GAMES`), as a server started for tests does. */
  readonly allowTestGames: boolean;
}

/** Statements get the command budget less what the reply itself needs. */
export function statementTimeoutMs(config: ServerConfig): number {
  return Math.max(1, config.commandTimeoutMs - 100);
}

/** Where the database is, from the server's own environment (checked whole, as readConfig does), and nothing written anywhere. */
export function readDatabaseConfig(
  env: NodeJS.ProcessEnv = process.env,
): Pick<ServerConfig, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir'> {
  const { databaseUrl, databaseDirectUrl, dataDir } = fromEnv(parseEnv(env));
  return { databaseUrl, databaseDirectUrl, dataDir };
}

/**
 * The settings of a server given in code (`GameRoomsModule.forRoot`): each variable's default,
 * then what is given. Nothing is read from the environment and nothing is written under DATA_DIR:
 * secrets not given are fresh for this process, so its tokens do not outlive it.
 */
export function configOf(given: Partial<ServerConfig> = {}): ServerConfig {
  const fresh = () => randomBytes(32).toString('base64url');
  return { ...fromEnv(parseEnv({})), tokenSecret: fresh(), adminToken: fresh(), adminTokenGenerated: false, ...given };
}

/** Reads and checks the environment; a value the server does not accept throws a ConfigError listing them all. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Every variable is checked before anything is written under DATA_DIR: a refused start changes nothing.
  const given = fromEnv(parseEnv(env));
  const keptToken = given.tokenSecret === undefined ? keptSecret(given.dataDir, 'token-secret') : undefined;
  const keptAdmin = given.adminToken === undefined ? keptSecret(given.dataDir, 'admin-token') : undefined;
  return {
    ...given,
    tokenSecret: given.tokenSecret ?? keptToken!.value,
    adminToken: given.adminToken ?? keptAdmin!.value,
    adminTokenGenerated: keptAdmin?.generated ?? false,
    adminTokenFile: keptAdmin?.file,
  };
}

function parseEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const names = Object.keys(SERVER_ENV) as ServerEnvName[];
  const result = serverEnvSchema.safeParse(Object.fromEntries(names.map((name) => [name, env[name]])));
  if (result.success) return result.data;
  // One line per variable: the first issue each (a bad entry in a list, or the value itself).
  const problems = new Map<string, ConfigProblem>();
  for (const issue of result.error.issues) {
    const name = String(issue.path[0]) as ServerEnvName;
    if (!problems.has(name)) problems.set(name, problem(name, env[name] ?? '', issue.message));
  }
  throw new ConfigError(names.filter((n) => problems.has(n)).map((n) => problems.get(n)!));
}

function problem(name: ServerEnvName, value: string, message: string): ConfigProblem {
  const { accepts, shown: how } = SERVER_ENV[name];
  const detail = message === accepts ? undefined : message;
  if (how === 'secret') return { variable: name, shown: '(not shown)', detail, accepts, line: `${name} ${message}` };
  const shown = `'${how === 'url' ? withoutPassword(value) : cut(value)}'`;
  return { variable: name, shown, detail, accepts, line: `${name}=${shown}: ${detail ? `${detail}; ` : ''}expected ${accepts}` };
}

// The refusal goes to the log: a database URL's password stays out of it.
function withoutPassword(value: string): string {
  try {
    const u = new URL(value);
    if (u.password) u.password = '***';
    return cut(u.href);
  } catch {
    return '(not shown: not a URL, and it may hold a password)';
  }
}

const cut = (value: string) => (value.length > 120 ? `${value.slice(0, 120)}...` : value);

type FromEnv = Omit<ServerConfig, 'tokenSecret' | 'adminToken' | 'adminTokenGenerated' | 'adminTokenFile'> & {
  tokenSecret?: string;
  adminToken?: string;
};

function fromEnv(e: ServerEnv): FromEnv {
  return {
    port: e.PORT,
    operatorPort: e.OPERATOR_PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    // Absolute, from where the server started.
    dataDir: resolve(e.DATA_DIR),
    tokenSecret: e.TOKEN_SECRET,
    adminToken: e.ADMIN_TOKEN,
    allowedOrigins: e.ALLOWED_ORIGINS,
    poolMax: e.DB_POOL_MAX,
    mailboxDepth: e.MAILBOX_DEPTH,
    pipelineDepth: e.PIPELINE_DEPTH,
    replyMemory: { roomBytes: e.REPLY_MEMORY_ROOM_BYTES, seatBytes: e.REPLY_MEMORY_SEAT_BYTES },
    commitLanes: e.DB_COMMIT_LANES,
    silenceMs: e.DB_SILENCE_MS,
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    passivateAfterMs: e.PASSIVATE_AFTER_SECONDS * 1000,
    roomExpirySeconds: e.ROOM_EXPIRY_SECONDS,
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    sendQueueBytes: e.SEND_QUEUE_BYTES,
    sendQueueFrames: e.SEND_QUEUE_FRAMES,
    socketPingIdleMs: e.SOCKET_PING_IDLE_MS,
    socketPongTimeoutMs: e.SOCKET_PONG_TIMEOUT_MS,
    instanceName: e.INSTANCE_NAME,
    instanceUrl: e.INSTANCE_URL,
    heartbeatMs: e.INSTANCE_HEARTBEAT_SECONDS * 1000,
    leaseMs: e.LEASE_SECONDS * 1000,
    openRatePerMinute: e.OPEN_RATE_PER_MINUTE,
    openBurst: e.OPEN_BURST,
    trustedProxies: e.TRUSTED_PROXIES,
    socketsPerSeat: e.SOCKETS_PER_SEAT,
    maxLiveRooms: e.MAX_LIVE_ROOMS,
    joinsPerMinute: e.JOINS_PER_MINUTE,
    deckWritesPerMinute: e.DECK_WRITES_PER_MINUTE,
    lookupsPerMinute: e.LOOKUPS_PER_MINUTE,
    spectatorsPerMinute: e.SPECTATORS_PER_MINUTE,
    addressTableEntries: e.ADDRESS_TABLE_ENTRIES,
    instanceOpensPerMinute: e.INSTANCE_OPENS_PER_MINUTE,
    instanceJoinsPerMinute: e.INSTANCE_JOINS_PER_MINUTE,
    instanceDeckWritesPerMinute: e.INSTANCE_DECK_WRITES_PER_MINUTE,
    instanceLookupsPerMinute: e.INSTANCE_LOOKUPS_PER_MINUTE,
    instanceSpectatorsPerMinute: e.INSTANCE_SPECTATORS_PER_MINUTE,
    spectatorsPerRoom: e.SPECTATORS_PER_ROOM,
    maxSockets: e.MAX_SOCKETS,
    overloadEventLoopDelayMs: e.OVERLOAD_EVENT_LOOP_DELAY_MS,
    overloadCommitWaitMs: e.OVERLOAD_COMMIT_WAIT_MS,
    overloadPoolWaitMs: e.OVERLOAD_POOL_WAIT_MS,
    overloadAnonymousEventLoopDelayMs: e.OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS,
    refusalsKeptDays: e.REFUSALS_KEPT_DAYS,
    refusalsPerRoomPerMinute: e.REFUSALS_PER_ROOM_PER_MINUTE,
    resultsKeptDays: e.RESULTS_KEPT_DAYS,
    finishedGamesKeptDays: e.FINISHED_GAMES_KEPT_DAYS,
    decksKeptDays: e.DECKS_KEPT_DAYS,
    retentionSweepMs: e.RETENTION_SWEEP_SECONDS * 1000,
    retentionBatchRows: e.RETENTION_BATCH_ROWS,
    allowTestSeeds: e.ALLOW_TEST_SEEDS,
    allowTestGames: e.ALLOW_TEST_GAMES,
    logLevel: e.LOG_LEVEL,
  };
}
