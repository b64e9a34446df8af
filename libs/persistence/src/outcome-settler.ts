import { ClientConfig, Pool, QueryResultRow } from 'pg';

/** Where a room's history stands in the database: how many statements were applied, and the lease's fence. */
export interface RoomHead {
  readonly commitSeq: number;
  readonly fence: number;
}

/** How long to wait before trying again when PostgreSQL cannot be asked. */
const RETRY_MS = 1000;
/** How often to check whether the server process that had the units is gone, and for how long to keep checking. */
const EXIT_POLL_MS = 20;
const EXIT_WAIT_MS = 5000;

/**
 * Finds out what the database holds of units whose answer was lost (OutcomeUnknown). First, the
 * server process that ran them must be gone, because until then it may still commit them (their
 * bytes may still be on their way to it). Once it is gone, each unit's transaction has either
 * committed or rolled back for good, and each room's head (`room_heads.commit_seq`) says which: a
 * unit at position `seq` committed exactly when the head is past it.
 *
 * It asks on two connections of its own, so that it never waits behind a busy pool. It keeps
 * asking, a second apart, while PostgreSQL cannot be reached, and the callers' replies wait for it.
 */
export class OutcomeSettler {
  private readonly pool: Pool;
  /** Server processes being ended. Each is ended once, however many units it had. */
  private readonly ending = new Map<number, Promise<void>>();
  private closed = false;

  constructor(config: ClientConfig, timeoutMs: number) {
    this.pool = new Pool({ ...config, max: 2, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, idleTimeoutMillis: 10_000 });
    // The pool drops a connection that fails while idle. If nobody listened, the error would end the process.
    this.pool.on('error', () => undefined);
  }

  /** Reads the heads of `roomIds` once the server process `backendPid` is gone. It tries until it can answer, or until closed. */
  async heads(backendPid: number, roomIds: readonly string[]): Promise<Map<string, RoomHead>> {
    const rows = await this.readOnceGone<{ roomId: string; commitSeq: string; fence: string }>(
      backendPid,
      'SELECT room_id AS "roomId", commit_seq AS "commitSeq", lease_fence AS fence FROM room_heads WHERE room_id = ANY($1::uuid[])',
      [roomIds],
    );
    return new Map(rows.map((r) => [r.roomId, { commitSeq: Number(r.commitSeq), fence: Number(r.fence) }]));
  }

  /**
   * Runs `sql` once the server process `backendPid` is gone, and returns what it reads (a write's
   * own check of whether it was recorded). It tries until it can answer, or until closed.
   */
  async readOnceGone<T extends QueryResultRow>(backendPid: number, sql: string, params: readonly unknown[]): Promise<T[]> {
    for (;;) {
      try {
        await this.gone(backendPid);
        return (await this.pool.query<T>(sql, params as unknown[])).rows;
      } catch (err) {
        if (this.closed) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.end().catch(() => undefined);
  }

  private gone(backendPid: number): Promise<void> {
    let ending = this.ending.get(backendPid);
    if (!ending) {
      ending = this.end(backendPid).finally(() => this.ending.delete(backendPid));
      this.ending.set(backendPid, ending);
    }
    return ending;
  }

  /** Ends the server process and waits until it has exited. The process is one of ours, so the same role may end it. */
  private async end(backendPid: number): Promise<void> {
    await this.pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1', [backendPid]);
    const deadline = performance.now() + EXIT_WAIT_MS;
    while ((await this.pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [backendPid])).rowCount) {
      if (performance.now() > deadline) throw new Error(`server process ${backendPid} did not exit within ${EXIT_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS));
    }
  }
}
