import { Pool, PoolClient, PoolConfig, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { RoomPosition, StoreUnavailableError } from '@app/room-engine';
import type { DatabaseRoutes } from './data-source';
import { NamedClient } from './instrumented-client';
import { OrderedStatement, OrderedStatements } from './ordered-statements';
import { OutcomeSettler } from './outcome-settler';
import { StatementMeter } from './statement-meter';

export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** Thrown when PostgreSQL cannot be reached, fails in a way a retry may fix, or does not answer in time. */
export class DatabaseUnavailableError extends StoreUnavailableError {
  constructor(
    readonly statement: string,
    cause: unknown,
  ) {
    super(`database unavailable during ${statement}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DatabaseUnavailableError';
  }
}

/** How long a statement may take, checkout included, unless its caller gives less. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 900;

/** How many pipelined connections carry rooms' writes. Each room always uses the same one. */
export const DEFAULT_COMMIT_LANES = 16;

/** How long PostgreSQL may stay silent on a commit lane with statements in flight before the lane is reset. */
export const DEFAULT_SILENCE_MS = 3000;

/**
 * How many connections the instance keeps for its own upkeep (its heartbeat, the release of its
 * leases), apart from the pool that requests share: one for the beat, which runs one at a time,
 * and one spare.
 */
export const CLUSTER_CONNECTIONS = 2;

/**
 * The connections for the retention's pruning, apart from those of requests and the heartbeat.
 * One is enough, because pruning runs one batch at a time.
 */
export const UPKEEP_CONNECTIONS = 1;

/**
 * Behind a transaction pooler, the number of connections that carry writes whose answer may need
 * settling (opening a room, a deck's writes). Settling ends the write's server process by its pid,
 * which only a direct connection knows. Such writes are few, because openings are rate-limited.
 */
export const SETTLED_WRITE_CONNECTIONS = 4;

/**
 * How a write finds out whether it was recorded when its answer was lost. It is a read that
 * returns the rows the write would have returned had it committed, and no rows if it did not. It
 * runs once the server process that had the write is gone, so the write can no longer commit
 * after the read.
 */
export interface WriteCheck {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Runs named statements: one checkout, one query, one round trip. The name is the `statement`
 * label of the metrics, and the name that tests count. There is no ping before checkout and no
 * BEGIN/COMMIT.
 *
 * Every statement has a time limit, checkout included. When the database goes silent (packets
 * held, a failover in progress), the caller gets a DatabaseUnavailableError in time instead of
 * waiting without end. A connection whose query ran out of time is reset, not reused, so nothing
 * queued on it can reach PostgreSQL later. A write given a WriteCheck is not failed at that point:
 * its outcome is unknown, and the check tells it (late, but truly) once the server process that
 * had the write is gone.
 */
export class Database {
  readonly pool: Pool;
  /**
   * Connections of their own for the heartbeat and the lease statements. A beat then never waits
   * for a connection behind requests' reads (a slow leaderboard, a burst of room loads), so a busy
   * instance does not miss beats, fail its readiness and lose its rooms because of that.
   */
  private readonly clusterPool: Pool;
  /** A connection of its own for the retention's pruning batches, so they never wait for another's connection nor hold one. */
  private readonly upkeepPool: Pool;
  /**
   * Where writes whose answer may need settling run. That is the pool when it reaches PostgreSQL
   * itself, and connections straight to PostgreSQL when the pool goes through a transaction pooler.
   */
  private readonly settledWritePool: Pool;
  /**
   * Set when the pool goes through a transaction pooler. Its statements then go unnamed, because a
   * pooler keeps no prepared statement from one transaction to the next.
   */
  private readonly pooled: boolean;
  private readonly prepared = new Map<string, string>();
  private readonly ordered: OrderedStatements;
  private readonly settler: OutcomeSettler;

  constructor(
    readonly dataSource: DataSource,
    readonly meter: StatementMeter,
    private readonly defaultTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
    commitLanes = DEFAULT_COMMIT_LANES,
    silenceMs = DEFAULT_SILENCE_MS,
  ) {
    this.pool = (dataSource.driver as unknown as { master: Pool }).master;
    const routes = routesOf(dataSource, this.pool);
    this.pooled = routes.pooled;
    // The lanes and the settler need sessions of their own, so they connect straight to PostgreSQL.
    this.settler = new OutcomeSettler(routes.direct, defaultTimeoutMs);
    this.ordered = new OrderedStatements(
      routes.direct,
      commitLanes,
      defaultTimeoutMs,
      silenceMs,
      meter,
      { unavailable: (statement, cause) => new DatabaseUnavailableError(statement, cause), isConnectionError },
      this.settler,
    );
    this.ordered.warm();
    // Use the same server, limits, keepalive and counted client class as the pool's connections.
    this.clusterPool = new Pool({ ...(this.pool.options as PoolConfig), max: CLUSTER_CONNECTIONS });
    // The pool drops an idle connection that breaks. If nobody listened, its error would end the process.
    this.clusterPool.on('error', () => undefined);
    this.upkeepPool = new Pool({ ...(this.pool.options as PoolConfig), max: UPKEEP_CONNECTIONS });
    this.upkeepPool.on('error', () => undefined);
    const { Client } = this.pool.options as { Client?: unknown };
    this.settledWritePool = this.pooled ? new Pool({ ...routes.direct, Client, max: SETTLED_WRITE_CONNECTIONS } as PoolConfig) : this.pool;
    if (this.pooled) this.settledWritePool.on('error', () => undefined);
  }

  /**
   * Runs a room's write. When its position is given (the room actor's statements, which may be
   * pipelined), it goes on the room's ordered path, which settles its own lost answers. Otherwise
   * it runs like any other statement, and its `check` settles it when its answer is lost.
   */
  write<T extends QueryResultRow>(
    statement: Omit<OrderedStatement, 'position'> & { readonly position?: RoomPosition; readonly check?: WriteCheck },
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<T[]> {
    const { position } = statement;
    if (!position) return this.run<T>(statement.name, statement.sql, statement.params, timeoutMs, statement.check);
    this.preparedName(statement.name, statement.sql);
    const handed = performance.now();
    const committed = this.ordered.run<T>({ ...statement, position }, timeoutMs);
    // How long commits wait is one of the overload signals. A failure is for the caller to handle.
    committed.then(
      () => this.meter.committed((performance.now() - handed) / 1000),
      () => undefined,
    );
    return committed;
  }

  /** While `reachable` returns false, rooms' statements are refused before they are written (OrderedStatements.writeOnlyWhile). */
  writeOnlyWhile(reachable: () => boolean): void {
    this.reachable = reachable;
    this.ordered.writeOnlyWhile(reachable);
  }

  private reachable: () => boolean = () => true;

  /** How many rooms' statements are in flight on the ordered path. */
  get orderedInFlight(): number {
    return this.ordered.inFlight;
  }

  /** Ends the connections of the ordered path and the cluster. The data source ends the pool itself. */
  async close(): Promise<void> {
    await Promise.all([
      this.ordered.close(),
      this.clusterPool.end(),
      this.upkeepPool.end(),
      this.pooled ? this.settledWritePool.end() : undefined,
    ]);
    await this.settler.close();
  }

  run<T extends QueryResultRow>(
    statement: string,
    sql: string,
    params: readonly unknown[] = [],
    timeoutMs = this.defaultTimeoutMs,
    check?: WriteCheck,
  ): Promise<T[]> {
    return this.runOn(check ? this.settledWritePool : this.pool, statement, sql, params, timeoutMs, check);
  }

  /** Runs a statement of the instance's upkeep (heartbeat, leases) on the cluster's own connections. */
  runForCluster<T extends QueryResultRow>(
    statement: string,
    sql: string,
    params: readonly unknown[] = [],
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<T[]> {
    return this.runOn(this.clusterPool, statement, sql, params, timeoutMs);
  }

  /** Runs a statement of the retention's pruning on its own connection, off every command's path. */
  runForUpkeep<T extends QueryResultRow>(
    statement: string,
    sql: string,
    params: readonly unknown[] = [],
    timeoutMs = this.defaultTimeoutMs,
  ): Promise<T[]> {
    return this.runOn(this.upkeepPool, statement, sql, params, timeoutMs);
  }

  private async runOn<T extends QueryResultRow>(
    pool: Pool,
    statement: string,
    sql: string,
    params: readonly unknown[],
    timeoutMs: number,
    check?: WriteCheck,
  ): Promise<T[]> {
    // Do not send a write into a link known to be down: it could be settled only once the link is back.
    if (check && !this.reachable())
      throw new DatabaseUnavailableError(statement, new Error('PostgreSQL is unreachable (the heartbeat says so); nothing was sent'));
    const started = process.hrtime.bigint();
    const deadline = performance.now() + timeoutMs;
    let client: PoolClient;
    try {
      client = await this.checkout(pool, timeoutMs);
    } catch (err) {
      this.meter.statement(statement, secondsSince(started), false);
      throw new DatabaseUnavailableError(statement, err);
    }
    // Only the wait for the shared pool is measured, because that is what requests feel (and what admission control reads).
    if (pool !== this.clusterPool && pool !== this.upkeepPool) this.meter.acquire(secondsSince(started));
    const named = client as unknown as NamedClient;
    named.statementName = statement;
    let broken: Error | undefined;
    let ok = false;
    const backendPid = (client as unknown as { processID?: number }).processID;
    try {
      // Name the statement, so that PostgreSQL parses and plans it once per connection (still in
      // one round trip). Through a transaction pooler it goes unnamed, because the next
      // transaction may run on another connection.
      const name = this.preparedName(statement, sql);
      const query = { name: this.pooled ? undefined : name, text: sql, values: params as unknown[] };
      const result = await withinTime(client.query<T>(query), deadline - performance.now(), () => resetConnection(client));
      ok = true;
      return result.rows;
    } catch (err) {
      if (isConnectionError(err) || err instanceof TimedOut) {
        broken = err as Error;
        if (!check || !backendPid) throw new DatabaseUnavailableError(statement, err);
      } else throw err;
    } finally {
      named.statementName = undefined;
      // A connection that failed or ran out of time mid-query is destroyed rather than handed on.
      client.release(broken);
      this.meter.statement(statement, secondsSince(started), ok);
    }
    // Only a write with a check gets here. Its answer was lost, and the check finds out what it did.
    return this.settle<T>(statement, backendPid!, check!, broken);
  }

  /**
   * Settles a write whose answer was lost. Once its server process is gone, its check says whether
   * it was recorded (it returns the rows the write would have returned) or not (the write then
   * fails as unavailable, and nothing was recorded).
   */
  private async settle<T extends QueryResultRow>(statement: string, backendPid: number, check: WriteCheck, lost: unknown): Promise<T[]> {
    let rows: T[];
    try {
      rows = await this.settler.readOnceGone<T>(backendPid, check.sql, check.params);
    } catch {
      this.meter.settled('unsettled');
      throw new DatabaseUnavailableError(statement, lost);
    }
    this.meter.settled(rows.length > 0 ? 'recorded' : 'not_recorded');
    if (rows.length > 0) return rows;
    throw new DatabaseUnavailableError(statement, new Error(`${lost instanceof Error ? lost.message : String(lost)}; it was not recorded`));
  }

  /** A statement's name is also its prepared statement's name. Each name must have one SQL text; two is a bug. */
  private preparedName(statement: string, sql: string): string {
    const known = this.prepared.get(statement);
    if (known === undefined) this.prepared.set(statement, sql);
    else if (known !== sql) throw new Error(`statement ${statement} was given two different SQL texts`);
    return statement;
  }

  /** Checks out a pooled connection within `timeoutMs`. A connection that arrives later goes straight back. */
  private checkout(pool: Pool, timeoutMs: number): Promise<PoolClient> {
    const pending = pool.connect();
    // Fire and forget: a late connection is released whenever it arrives, and both outcomes are handled.
    return withinTime(
      pending,
      timeoutMs,
      () =>
        void pending.then(
          (c) => c.release(),
          () => undefined,
        ),
    );
  }

  poolStats(): PoolStats {
    return {
      total: this.pool.totalCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
      max: (this.pool.options as { max?: number }).max ?? 10,
    };
  }
}

/**
 * Where a data source's connections go: as openDataSource set them, or, for a data source made
 * some other way, everything to where its pool goes (one PostgreSQL, no pooler).
 */
function routesOf(dataSource: DataSource, pool: Pool): DatabaseRoutes {
  const routes = (dataSource as { routes?: DatabaseRoutes }).routes;
  if (routes) return routes;
  const { Client: _client, max: _max, ...direct } = pool.options as unknown as Record<string, unknown>;
  return { pooled: false, direct };
}

class TimedOut extends Error {
  constructor(ms: number) {
    super(`no answer within ${Math.round(ms)} ms`);
    this.name = 'TimedOut';
  }
}

/** Resolves as `promise` does, or rejects with TimedOut after `ms`. Then `onLate` runs, and a later settlement is ignored. */
function withinTime<T>(promise: Promise<T>, ms: number, onLate: () => void): Promise<T> {
  if (ms <= 0) {
    onLate();
    promise.catch(() => undefined);
    return Promise.reject(new TimedOut(0));
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      // A process that was stopped or starved runs its due timers before it reads its sockets, and
      // the answer may be waiting there. So the verdict waits for the I/O phase, which reads it.
      setImmediate(() => {
        if (settled) return;
        settled = true;
        onLate();
        promise.catch(() => undefined);
        reject(new TimedOut(ms));
      });
    }, ms);
    promise.then(
      (v) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/**
 * Drops a connection at once with a TCP reset. The kernel then discards what it still holds for
 * PostgreSQL, so a statement the caller gave up on cannot arrive after the link heals.
 */
function resetConnection(client: PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { resetAndDestroy?: () => void; destroy: () => void } } }).connection
    ?.stream;
  if (!stream) return;
  if (typeof stream.resetAndDestroy === 'function') stream.resetAndDestroy();
  else stream.destroy();
}

function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Errors that mean the link or the server is gone, not that the statement was wrong. */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code ?? '';
  return (
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH)$/.test(code) ||
    code.startsWith('08') || // connection exception
    code === '57P01' || // admin shutdown
    code === '57P03' || // cannot connect now
    code === '57014' || // canceled: statement_timeout, a statement that waited too long (a lock, a stall)
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/.test(
      err.message,
    )
  );
}
