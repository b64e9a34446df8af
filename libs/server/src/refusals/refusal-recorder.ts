import { RefusalDrop } from '@app/observability';
import { RefusalRepository, RefusalRow } from '@app/persistence';
import { RefusalHook } from '@app/room-engine';
import { RoomRefusalCap } from './room-refusal-cap';

/** The most rows the process holds waiting to be written. Past that, refusals are dropped and counted. */
export const REFUSAL_BUFFER_CAP = 10_000;
/** The most rows one statement writes. */
export const REFUSAL_BATCH_ROWS = 500;
/** How long a refusal may wait before its batch is written. */
export const REFUSAL_FLUSH_MS = 1000;
export const DEFAULT_REFUSALS_KEPT_DAYS = 7;
export const DEFAULT_REFUSALS_PER_ROOM_PER_MINUTE = 120;

export interface RefusalRecorderOptions {
  readonly keptDays: number;
  readonly perRoomPerMinute: number;
  readonly bufferCap?: number;
  readonly batchRows?: number;
  readonly flushMs?: number;
  readonly timeoutMs?: number;
}

export interface RefusalCounters {
  refusalsWritten(count: number): void;
  refusalsLost(reason: RefusalDrop, count?: number): void;
}

/**
 * Keeps every refusal that the rooms answer, for the console (`refused_commands`), off the answer
 * path. A room's hook only pushes a row into this process's buffer, and a timer writes what
 * gathered in one statement a second later (or in several of `REFUSAL_BATCH_ROWS` rows each, when
 * more gathered). The timer runs only while rows wait, so an idle server writes nothing. The record
 * is bounded three ways. Each room adds at most its share a minute. The buffer holds at most
 * `REFUSAL_BUFFER_CAP` rows, and what does not fit is dropped and counted
 * (`game_refused_commands_dropped_total`). Rows past the window are deleted as new ones are written.
 */
export class RefusalRecorder {
  private buffer: RefusalRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private stopped = false;
  private readonly bufferCap: number;
  private readonly batchRows: number;
  private readonly flushMs: number;

  constructor(
    private readonly repo: RefusalRepository,
    private readonly options: RefusalRecorderOptions,
    private readonly counters: RefusalCounters,
    private readonly warn: (msg: string, fields?: Record<string, unknown>) => void,
  ) {
    this.bufferCap = options.bufferCap ?? REFUSAL_BUFFER_CAP;
    this.batchRows = options.batchRows ?? REFUSAL_BATCH_ROWS;
    this.flushMs = options.flushMs ?? REFUSAL_FLUSH_MS;
  }

  /** How many rows wait to be written. */
  get buffered(): number {
    return this.buffer.length;
  }

  /**
   * Makes the hook of one room. The hook keeps the room to its share a minute, and records the name
   * of the seat that sent each refusal, as the room knows it at that moment.
   */
  hookFor(roomId: string, nameOf: (seat: string) => string | undefined): RefusalHook {
    const cap = new RoomRefusalCap(this.options.perRoomPerMinute);
    return (r) => {
      if (!cap.take(r.at)) return this.counters.refusalsLost('room_cap');
      this.add({
        roomId,
        atMs: r.at,
        by: r.by,
        seat: r.seat ?? null,
        name: r.seat !== undefined ? (nameOf(r.seat) ?? null) : null,
        type: r.type,
        code: r.code,
        status: r.status,
        message: r.message,
      });
    };
  }

  add(row: RefusalRow): void {
    if (this.buffer.length >= this.bufferCap) return this.counters.refusalsLost('buffer_full');
    this.buffer.push(row);
    this.schedule();
  }

  /**
   * Writes everything buffered now, for tests and for the server's stop. Resolves once every row is
   * written or dropped.
   */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    while (this.buffer.length > 0) await this.writeBatch();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Called when the server stops. What is buffered is written, and nothing more is taken. */
  async stop(): Promise<void> {
    await this.flush();
    this.stopped = true;
  }

  /** Deletes the rows past the window, at start. After that, the writes delete such rows as they go. */
  async pruneOnce(): Promise<void> {
    try {
      await this.repo.prune(this.options.keptDays, this.options.timeoutMs);
    } catch (err) {
      this.warn('could not prune old refused commands; the next write does', { error: String(err) });
    }
  }

  private schedule(): void {
    if (this.timer || this.writing || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeBatch();
    }, this.flushMs);
    this.timer.unref();
  }

  private writeBatch(): Promise<void> {
    const rows = this.buffer.splice(0, this.batchRows);
    if (rows.length === 0) return Promise.resolve();
    const writing = this.repo.record(rows, this.options.keptDays, this.options.timeoutMs).then(
      () => this.counters.refusalsWritten(rows.length),
      (err) => {
        // The batch is not retried, because while the database is away the batches would pile up.
        // The rows are counted as dropped instead.
        this.counters.refusalsLost('write_failed', rows.length);
        this.warn('could not record refused commands', { rows: rows.length, error: String(err) });
      },
    );
    this.writing = writing.finally(() => {
      this.writing = undefined;
      // Rows that arrived during the write wait a second of their own.
      if (this.buffer.length > 0) this.schedule();
    });
    return this.writing;
  }
}
