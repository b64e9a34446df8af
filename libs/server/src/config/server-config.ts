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
   * The port where /metrics and /admin (the console and its API) are served, apart from the players'
   * port, which then answers them with 404. When unset, both are served on `port`, as before.
   */
  readonly operatorPort?: number;
  readonly host: string;
  /** When unset, the server starts an embedded PostgreSQL under DATA_DIR. */
  readonly databaseUrl?: string;
  /**
   * PostgreSQL's own address, for what needs a session of its own (migrations, commit lanes, LISTEN,
   * the settling of lost answers) when `databaseUrl` is a transaction pooler's. When unset,
   * `databaseUrl` is used.
   */
  readonly databaseDirectUrl?: string;
  readonly dataDir: string;
  readonly adminToken: string;
  /**
   * True only on the start that generated the token into `adminTokenFile`. It is shown once, and
   * only on a terminal.
   */
  readonly adminTokenGenerated: boolean;
  /** Where a generated admin token is kept. It is unset when ADMIN_TOKEN came from the environment. */
  readonly adminTokenFile?: string;
  readonly allowedOrigins: string[];
  readonly tokenSecret: string;
  readonly poolMax: number;
  readonly mailboxDepth: number;
  /**
   * How many of a room's decisions may have statements in flight at once (pipelined commits). 1 turns
   * pipelining off, and then a batch waits for the statement before it.
   */
  readonly pipelineDepth: number;
  /**
   * How many bytes of JSON of its replies a room remembers for resends, in all and for one seat. When
   * unset, 64 KiB and 8 KiB.
   */
  readonly replyMemory?: { readonly roomBytes: number; readonly seatBytes: number };
  /** How many pipelined connections carry the rooms' writes. Each room always uses the same one. */
  readonly commitLanes: number;
  /**
   * How long PostgreSQL may say nothing on a commit lane with statements in flight before the lane is
   * reset, in milliseconds of this process's waking time.
   */
  readonly silenceMs: number;
  /** How far V8 lets the heap grow past what the last full collection kept, in percent. 0 leaves it to V8. */
  readonly heapGrowingPercent: number;
  readonly passivateAfterMs: number;
  readonly roomExpirySeconds: number;
  /**
   * Every command, HTTP request and /health is answered within this many ms, whatever PostgreSQL
   * does, so a silent outage gets its 503 in time. Statements get a little less.
   */
  readonly commandTimeoutMs: number;
  readonly logLevel: LogLevel;
  /** How much may be sent on a socket and not yet read by its client before the socket is evicted with 4009. */
  readonly sendQueueBytes: number;
  readonly sendQueueFrames: number;
  /**
   * A socket that is quiet this long is pinged. If it then answers nothing for `socketPongTimeoutMs`,
   * it is closed with 4011, and its seat shows as disconnected. When unset, 20 s and 30 s.
   */
  readonly socketPingIdleMs?: number;
  readonly socketPongTimeoutMs?: number;
  /** This instance's stable name in the registry and on /health. When unset, `<hostname>-<port>`. */
  readonly instanceName?: string;
  /** Where other instances and operators reach this one. When unset, `http://<hostname>:<port>`. */
  readonly instanceUrl?: string;
  /**
   * How often the instance writes its registry row and renews its leases. When unset or 0, it writes
   * once at start and once at stop.
   */
  readonly heartbeatMs?: number;
  /**
   * How long a room's lease lasts unless renewed (PROTOCOL.md section 10). Another instance may take
   * a dead instance's rooms this long after its last beat. It must be at least two beats.
   */
  readonly leaseMs?: number;
  /**
   * How many rooms and tables one client address may open: at most `openBurst` in a window of
   * `openBurst / openRatePerMinute` minutes, so `openRatePerMinute` on average. 0 means no limit.
   */
  readonly openRatePerMinute: number;
  readonly openBurst: number;
  /**
   * The peers whose `X-Forwarded-For` header names the client (Express's `trust proxy`), given as
   * addresses, CIDRs or `loopback`, `linklocal`, `uniquelocal`. When it is empty, the client is the
   * TCP peer and the header is ignored.
   */
  readonly trustedProxies: string[];
  /**
   * How many open sockets one seat token may hold. The newest wins, and the oldest past the limit
   * closes with 4010.
   */
  readonly socketsPerSeat: number;
  /**
   * The most live rooms and tables this instance holds. Past that, opening and activating get 503.
   * 0 means no cap.
   */
  readonly maxLiveRooms: number;
  /**
   * Limits per client address, in a window of one minute (0 means no limit): joins, deck creations
   * and imports, room lookups, and spectator seats asked for. A request past a limit gets 429
   * `rate_limited` with Retry-After.
   */
  readonly joinsPerMinute: number;
  readonly deckWritesPerMinute: number;
  readonly lookupsPerMinute: number;
  readonly spectatorsPerMinute: number;
  /** Pictures uploaded to decks (and taken out of them), per address a minute. */
  readonly imageUploadsPerMinute: number;
  /** The most addresses each per-address table holds. Past that, the least recently seen address is dropped. */
  readonly addressTableEntries: number;
  /**
   * The same surfaces counted for the whole instance, from every address together. Each is a token
   * bucket of a minute's worth that refills evenly (0 means no limit). A request past a limit gets
   * 503 `overloaded` with Retry-After.
   */
  readonly instanceOpensPerMinute: number;
  readonly instanceJoinsPerMinute: number;
  readonly instanceDeckWritesPerMinute: number;
  readonly instanceLookupsPerMinute: number;
  readonly instanceSpectatorsPerMinute: number;
  readonly instanceImageUploadsPerMinute: number;
  /**
   * The length in seconds (60) of the minute of every per-minute budget above, per address and per
   * instance. Tests lengthen it so that no window ends, and no token comes back, in the middle of a
   * test.
   */
  readonly addressWindowSeconds?: number;
  /**
   * The most spectator sockets one room holds. Past that, a new spectator seat or socket is refused
   * with 429. 0 means no cap.
   */
  readonly spectatorsPerRoom: number;
  /** The most sockets this instance holds. Past that, an upgrade gets 503 with Retry-After. 0 means no cap. */
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
   * event loop's delay holds this mark, with the same hysteresis. 0 turns this mark off.
   */
  readonly overloadAnonymousEventLoopDelayMs: number;
  /** Refused commands are kept this many days for the console (`refused_commands`). When unset, 7. */
  readonly refusalsKeptDays?: number;
  /**
   * How many refusals one room may add to that record per minute. The rest are counted as dropped.
   * When unset, 120.
   */
  readonly refusalsPerRoomPerMinute?: number;
  /**
   * How long a results link answers, and how long after a room closed its journal, snapshot and
   * deck copy are kept (README, "Retention"). When unset, 30 days.
   */
  readonly resultsKeptDays?: number;
  /**
   * How long finished games (the console's history, the leaderboard) are kept. 0 keeps them for
   * ever. When unset, 30 days.
   */
  readonly finishedGamesKeptDays?: number;
  /**
   * Hosts' decks that no room names and nobody has edited for this many days are removed. 0 keeps
   * them for ever. When unset, 30 days.
   */
  readonly decksKeptDays?: number;
  /** How often this instance prunes what is past its retention. When unset or 0, it does not prune. */
  readonly retentionSweepMs?: number;
  /** The most rows (or rooms) one pruning statement removes. When unset, 1000. */
  readonly retentionBatchRows?: number;
  /**
   * True on a server started for tests, where a `seed` in an opening body is honoured. Otherwise a
   * seed is refused with 400.
   */
  readonly allowTestSeeds: boolean;
  /** Whether to serve the games that live only in tests (`TEST_GAMES`), as a server started for tests does. */
  readonly allowTestGames: boolean;
}

/** Statements get the command budget less what the reply itself needs. */
export function statementTimeoutMs(config: ServerConfig): number {
  return Math.max(1, config.commandTimeoutMs - 100);
}

/**
 * Reads where the database is from the server's own environment, which is checked whole, as
 * readConfig does. Nothing is written anywhere.
 */
export function readDatabaseConfig(
  env: NodeJS.ProcessEnv = process.env,
): Pick<ServerConfig, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir'> {
  const { databaseUrl, databaseDirectUrl, dataDir } = fromEnv(parseEnv(env));
  return { databaseUrl, databaseDirectUrl, dataDir };
}

/**
 * The settings of a server configured in code (`GameRoomsModule.forRoot`): each variable's default,
 * overridden by what is given. Nothing is read from the environment and nothing is written under
 * DATA_DIR. Secrets that are not given are fresh for this process, so its tokens do not outlive it.
 */
export function configOf(given: Partial<ServerConfig> = {}): ServerConfig {
  const fresh = () => randomBytes(32).toString('base64url');
  return { ...fromEnv(parseEnv({})), tokenSecret: fresh(), adminToken: fresh(), adminTokenGenerated: false, ...given };
}

/**
 * Reads and checks the environment. If any value is one that the server does not accept, it throws a
 * ConfigError that lists them all.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Every variable is checked before anything is written under DATA_DIR, so a refused start changes nothing.
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
  // The refusal has one line per variable, with that variable's first issue (a bad entry in a list,
  // or the value itself).
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

// The refusal goes to the log, so a database URL's password must stay out of it.
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
    // DATA_DIR is made absolute, from where the server started.
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
    imageUploadsPerMinute: e.IMAGE_UPLOADS_PER_MINUTE,
    addressTableEntries: e.ADDRESS_TABLE_ENTRIES,
    instanceOpensPerMinute: e.INSTANCE_OPENS_PER_MINUTE,
    instanceJoinsPerMinute: e.INSTANCE_JOINS_PER_MINUTE,
    instanceDeckWritesPerMinute: e.INSTANCE_DECK_WRITES_PER_MINUTE,
    instanceLookupsPerMinute: e.INSTANCE_LOOKUPS_PER_MINUTE,
    instanceSpectatorsPerMinute: e.INSTANCE_SPECTATORS_PER_MINUTE,
    instanceImageUploadsPerMinute: e.INSTANCE_IMAGE_UPLOADS_PER_MINUTE,
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
