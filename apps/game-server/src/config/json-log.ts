import { LoggerService } from '@nestjs/common';

type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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
    this.out(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
  }
}
