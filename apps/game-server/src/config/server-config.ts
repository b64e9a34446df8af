import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { checkSecret, keptSecret } from './secrets';

/** Everything the server reads from its environment, with the defaults a newcomer wants. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: the server starts an embedded PostgreSQL under DATA_DIR. */
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly adminToken: string;
  /** True only on the start that generated it into `adminTokenFile` (the log shows it once). */
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
  /** Pipelined connections that carry rooms' writes, each room always on the same one. */
  readonly commitLanes: number;
  readonly passivateAfterMs: number;
  readonly roomExpirySeconds: number;
  /**
   * Every command, HTTP request and /health is answered within this many ms, whatever PostgreSQL
   * does (a silent outage gets 503 in time); statements get a little less.
   */
  readonly commandTimeoutMs: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** What a socket may have sent and its client not yet read before it is evicted with 4009. */
  readonly sendQueueBytes: number;
  readonly sendQueueFrames: number;
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
  /** A server started for tests: `seed` in `POST /api/tables` is honoured (refused with 400 otherwise). */
  readonly allowTestSeeds: boolean;
}

/** Statements get the command budget less what the reply itself needs. */
export function statementTimeoutMs(config: ServerConfig): number {
  return Math.max(1, config.commandTimeoutMs - 100);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Every variable is checked before anything is written under DATA_DIR: a refused start changes nothing.
  const given = {
    port: int(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || '.data'),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    poolMax: int(env.DB_POOL_MAX, 10, 'DB_POOL_MAX'),
    mailboxDepth: int(env.MAILBOX_DEPTH, 64, 'MAILBOX_DEPTH'),
    pipelineDepth: int(env.PIPELINE_DEPTH, 8, 'PIPELINE_DEPTH'),
    commitLanes: int(env.DB_COMMIT_LANES, 16, 'DB_COMMIT_LANES'),
    passivateAfterMs: int(env.PASSIVATE_AFTER_SECONDS, 60, 'PASSIVATE_AFTER_SECONDS') * 1000,
    roomExpirySeconds: int(env.ROOM_EXPIRY_SECONDS, 300, 'ROOM_EXPIRY_SECONDS'),
    commandTimeoutMs: int(env.COMMAND_TIMEOUT_MS, 1000, 'COMMAND_TIMEOUT_MS'),
    sendQueueBytes: int(env.SEND_QUEUE_BYTES, 256 * 1024, 'SEND_QUEUE_BYTES'),
    sendQueueFrames: int(env.SEND_QUEUE_FRAMES, 1024, 'SEND_QUEUE_FRAMES'),
    instanceName: instanceName(env.INSTANCE_NAME),
    instanceUrl: env.INSTANCE_URL || undefined,
    heartbeatMs: int(env.INSTANCE_HEARTBEAT_SECONDS, 2, 'INSTANCE_HEARTBEAT_SECONDS') * 1000,
    leaseMs: int(env.LEASE_SECONDS, 6, 'LEASE_SECONDS') * 1000,
    openRatePerMinute: int(env.OPEN_RATE_PER_MINUTE, 30, 'OPEN_RATE_PER_MINUTE'),
    openBurst: atLeastOne(env.OPEN_BURST, 30, 'OPEN_BURST'),
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    socketsPerSeat: atLeastOne(env.SOCKETS_PER_SEAT, 3, 'SOCKETS_PER_SEAT'),
    maxLiveRooms: int(env.MAX_LIVE_ROOMS, 5000, 'MAX_LIVE_ROOMS'),
    allowTestSeeds: flag(env.ALLOW_TEST_SEEDS, 'ALLOW_TEST_SEEDS'),
    logLevel: (['debug', 'info', 'warn', 'error'].includes(env.LOG_LEVEL ?? '') ? env.LOG_LEVEL : 'info') as ServerConfig['logLevel'],
  };
  if (given.heartbeatMs > 0 && given.leaseMs < 2 * given.heartbeatMs) {
    throw new Error(`LEASE_SECONDS (${given.leaseMs / 1000}) must be at least two heartbeats (INSTANCE_HEARTBEAT_SECONDS=${given.heartbeatMs / 1000}): a lease would run out between two renewals`);
  }
  // An empty variable counts as unset: compose passes `${ADMIN_TOKEN:-}` through as ''.
  const tokenSecret = env.TOKEN_SECRET ? checkSecret('TOKEN_SECRET', env.TOKEN_SECRET) : undefined;
  const adminToken = env.ADMIN_TOKEN ? checkSecret('ADMIN_TOKEN', env.ADMIN_TOKEN) : undefined;
  const keptToken = tokenSecret === undefined ? keptSecret(given.dataDir, 'token-secret') : undefined;
  const keptAdmin = adminToken === undefined ? keptSecret(given.dataDir, 'admin-token') : undefined;
  return {
    ...given,
    tokenSecret: tokenSecret ?? keptToken!.value,
    adminToken: adminToken ?? keptAdmin!.value,
    adminTokenGenerated: keptAdmin?.generated ?? false,
    adminTokenFile: keptAdmin?.file,
  };
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got '${value}'`);
  return n;
}

function atLeastOne(value: string | undefined, fallback: number, name: string): number {
  const n = int(value, fallback, name);
  if (n < 1) throw new Error(`${name} must be at least 1, got '${value}'`);
  return n;
}

// Only 1 turns a flag on: a typo such as `ALLOW_TEST_SEEDS=yes` must not pass for either answer.
function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`${name} must be 1 or 0, got '${value}'`);
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

// Checked here, not left to Express: a wrong entry would otherwise fail only at the first request.
function trustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of entries) {
    if (PROXY_KEYWORDS.has(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new Error(`TRUSTED_PROXIES: '${entry}' is not an IP address, a CIDR (address/bits) or one of loopback, linklocal, uniquelocal`);
    }
  }
  return entries;
}

// A name is a label of the registry, the console and /health: short, and plain enough to read in a log.
function instanceName(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(value)) {
    throw new Error(`INSTANCE_NAME must be 1 to 63 letters, digits, '.', '_' or '-' (starting with a letter or digit), got '${value}'`);
  }
  return value;
}
