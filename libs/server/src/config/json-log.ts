import { AsyncLocalStorage } from 'node:async_hooks';
import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * The bounds of one line. A field may carry what a client wrote (a name, a command type), so every
 * value is cut short. A stack trace (`error`) gets more room, because it is the server's own and
 * useful.
 */
export const LOG_LIMITS = { fields: 16, keyChars: 64, valueChars: 256, errorChars: 4096, messageChars: 1024 } as const;
const RESERVED = new Set(['time', 'level', 'msg', 'fieldsDropped', 'reqId']);

/** What every line written while serving one HTTP request carries: its id, and the room it names. */
export interface LogContext {
  readonly reqId: string;
  readonly room?: string;
}

/**
 * The request being served, if any. It is set around each HTTP request (in
 * apps/game-server/src/http/request-log.ts).
 */
export const logContext = new AsyncLocalStorage<LogContext>();

/**
 * Writes one JSON line per event that matters, `{"level","time","msg",...fields}`, through pino.
 * Nothing below the configured level is written, so a busy server's log stays readable. A line
 * written while an HTTP request is served carries the request's `reqId`, and the room code
 * (`room`) that the request names.
 */
export class JsonLog implements LoggerService {
  private readonly pino: Logger;

  constructor(level: Level = 'info', out: (line: string) => void = (line) => process.stdout.write(line + '\n')) {
    this.pino = pino(
      {
        level,
        base: undefined,
        messageKey: 'msg',
        timestamp: () => `,"time":"${new Date().toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
        // A line written while a request is served gets the request's id and room. A field that
        // the caller names (its own `room`) comes after these and wins.
        // pino-http's lines come from its child logger, which has them bound already.
        mixin: (_fields, _level, logger) => {
          const context = logger === this.pino ? logContext.getStore() : undefined;
          return context ? { reqId: context.reqId, ...(context.room ? { room: context.room } : {}) } : {};
        },
      },
      // pino writes each line whole, newline included, synchronously to this stream.
      { write: (line: string) => out(line.endsWith('\n') ? line.slice(0, -1) : line) },
    );
  }

  /** The pino logger itself, for pino-http, so that its request lines are lines of this log. */
  get logger(): Logger {
    return this.pino;
  }

  debug(msg: string, fields?: Record<string, unknown>): void {
    this.write('debug', msg, fields);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    this.write('info', msg, fields);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    this.write('warn', msg, fields);
  }

  error(msg: unknown, fields?: Record<string, unknown> | string): void {
    const extra = typeof fields === 'string' ? { context: fields } : fields;
    // A client's broken frame (ws reports WS_ERR_*) is the client's fault, not the server's.
    const code = (msg as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('WS_ERR_'))
      return this.write('warn', 'a client sent an invalid frame', { ...extra, code });
    this.write('error', msg instanceof Error ? msg.message : typeof msg === 'string' ? msg : JSON.stringify(msg), extra);
  }

  // The LoggerService methods: Nest's own messages arrive here, with their context.
  log(message: unknown, context?: unknown): void {
    // Nest's start-up chatter (every module, route and gateway) is logged at debug, and the rest at info.
    const chatter =
      typeof context === 'string' && /^(InstanceLoader|RoutesResolver|RouterExplorer|WebSocketsController|NestFactory)$/.test(context);
    this.write(chatter ? 'debug' : 'info', String(message), typeof context === 'string' ? { context } : undefined);
  }

  verbose(message: unknown, context?: unknown): void {
    this.write('debug', String(message), typeof context === 'string' ? { context } : undefined);
  }

  private write(level: Level, msg: string, fields?: Record<string, unknown>): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {};
    let kept = 0;
    let dropped = 0;
    for (const [key, value] of Object.entries(fields ?? {})) {
      if (RESERVED.has(key) || value === undefined) continue;
      if (kept === LOG_LIMITS.fields) {
        dropped++;
        continue;
      }
      kept++;
      line[cut(key, LOG_LIMITS.keyChars, false)] = bounded(value, key === 'error' ? LOG_LIMITS.errorChars : LOG_LIMITS.valueChars);
    }
    if (dropped > 0) line.fieldsDropped = dropped;
    this.pino[level](line, cut(msg, LOG_LIMITS.messageChars));
  }
}

/** Returns a value as it is written: a string cut short, an object kept only while its JSON is short. */
function bounded(value: unknown, chars: number): unknown {
  if (typeof value === 'string') return cut(value, chars);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // JSON.stringify throws on cycles and on BigInt.
  }
  if (json === undefined) return cut(String(value), chars);
  return json.length > chars ? cut(json, chars) : value;
}

/** Returns `s` itself, or its first `chars` characters, an ellipsis and how long it was. */
function cut(s: string, chars: number, withLength = true): string {
  if (s.length <= chars) return s;
  return withLength ? `${s.slice(0, chars)}… (${s.length} chars)` : `${s.slice(0, chars - 1)}…`;
}
