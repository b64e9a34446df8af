import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Everything the server reads from its environment, with the defaults a newcomer wants. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Unset: the server starts an embedded PostgreSQL under DATA_DIR. */
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly adminToken: string;
  readonly adminTokenGenerated: boolean;
  readonly allowedOrigins: string[];
  readonly tokenSecret: string;
  readonly poolMax: number;
  readonly mailboxDepth: number;
  readonly passivateAfterMs: number;
  readonly roomExpirySeconds: number;
  /**
   * Every command, HTTP request and /health is answered within this many ms, whatever PostgreSQL
   * does (a silent outage gets 503 in time); statements get a little less.
   */
  readonly commandTimeoutMs: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** Statements get the command budget less what the reply itself needs. */
export function statementTimeoutMs(config: ServerConfig): number {
  return Math.max(1, config.commandTimeoutMs - 100);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(env.DATA_DIR || '.data');
  const adminToken = env.ADMIN_TOKEN || randomBytes(18).toString('base64url');
  return {
    port: int(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    adminToken,
    adminTokenGenerated: !env.ADMIN_TOKEN,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    tokenSecret: env.TOKEN_SECRET || keptSecret(dataDir),
    poolMax: int(env.DB_POOL_MAX, 10, 'DB_POOL_MAX'),
    mailboxDepth: int(env.MAILBOX_DEPTH, 64, 'MAILBOX_DEPTH'),
    passivateAfterMs: int(env.PASSIVATE_AFTER_SECONDS, 60, 'PASSIVATE_AFTER_SECONDS') * 1000,
    roomExpirySeconds: int(env.ROOM_EXPIRY_SECONDS, 300, 'ROOM_EXPIRY_SECONDS'),
    commandTimeoutMs: int(env.COMMAND_TIMEOUT_MS, 1000, 'COMMAND_TIMEOUT_MS'),
    logLevel: (['debug', 'info', 'warn', 'error'].includes(env.LOG_LEVEL ?? '') ? env.LOG_LEVEL : 'info') as ServerConfig['logLevel'],
  };
}

/** A token secret generated once and kept under DATA_DIR, so tokens survive a restart. */
function keptSecret(dataDir: string): string {
  const file = join(dataDir, 'token-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got '${value}'`);
  return n;
}
