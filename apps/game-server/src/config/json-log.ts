import { LoggerService } from '@nestjs/common';

type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Bounds of one line. A field may carry what a client wrote (a name, a command type), so every
 * value is cut short; a stack trace (`error`) gets more room, being the server's own and useful.
 */
export const LOG_LIMITS = { fields: 16, keyChars: 64, valueChars: 256, errorChars: 4096, messageChars: 1024 } as const;
const RESERVED = new Set(['time', 'level', 'msg', 'fieldsDropped']);

/**
 * One JSON line per event that matters: `{"time","level","msg",...fields}`. Below the configured
 * level nothing is written, so a busy server's log stays readable.
 */
export class JsonLog implements LoggerService {
  constructor(
    private readonly level: Level = 'info',
    private readonly out: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

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
    if (typeof code === 'string' && code.startsWith('WS_ERR_')) return this.write('warn', 'a client sent an invalid frame', { ...extra, code });
    this.write('error', msg instanceof Error ? msg.message : typeof msg === 'string' ? msg : JSON.stringify(msg), extra);
  }

  // LoggerService: Nest's own messages, with their context.
  log(message: unknown, context?: unknown): void {
    // Nest's start-up chatter (every module, route and gateway) is debug; the rest is info.
    const chatter = typeof context === 'string' && /^(InstanceLoader|RoutesResolver|RouterExplorer|WebSocketsController|NestFactory)$/.test(context);
    this.write(chatter ? 'debug' : 'info', String(message), typeof context === 'string' ? { context } : undefined);
  }

  verbose(message: unknown, context?: unknown): void {
    this.write('debug', String(message), typeof context === 'string' ? { context } : undefined);
  }

  private write(level: Level, msg: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    const line: Record<string, unknown> = { time: new Date().toISOString(), level, msg: cut(msg, LOG_LIMITS.messageChars) };
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
    this.out(JSON.stringify(line));
  }
}

/** A value as it is written: strings cut short, objects kept only while their JSON is short. */
function bounded(value: unknown, chars: number): unknown {
  if (typeof value === 'string') return cut(value, chars);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // cycles, BigInt
  }
  if (json === undefined) return cut(String(value), chars);
  return json.length > chars ? cut(json, chars) : value;
}

/** `s` itself, or its first `chars` characters, an ellipsis and how long it was. */
function cut(s: string, chars: number, withLength = true): string {
  if (s.length <= chars) return s;
  return withLength ? `${s.slice(0, chars)}… (${s.length} chars)` : `${s.slice(0, chars - 1)}…`;
}
