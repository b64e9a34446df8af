import { Client, ClientConfig, QueryResultRow } from 'pg';
// pg's own row parser and value mapper: a lane speaks the same dialect as every pooled query.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Result } = require('pg') as { Result: new () => PgResult };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (v: unknown) => unknown };

interface PgResult {
  rows: QueryResultRow[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): QueryResultRow;
}

/** One statement of a unit: a name (its prepared statement's), its SQL and its values. */
export interface LaneStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

interface Unit {
  readonly statements: readonly LaneStatement[];
  /** The names this unit's Parse messages prepare, and how many PostgreSQL has confirmed. */
  readonly parses: string[];
  parsedCount: number;
  readonly rows: QueryResultRow[][];
  current?: PgResult;
  error?: unknown;
  readonly resolve: (rows: QueryResultRow[][]) => void;
  readonly reject: (err: unknown) => void;
}

/** The lane's connection went away, or a unit did not answer in time and the connection was reset. */
export class LaneBroken extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'LaneBroken';
  }
}

const RETRY_CONNECT_MS = 1000;

/** Messages pg's Client would route to its single active query; on a lane, units take them. */
const UNIT_MESSAGES = [
  'parseComplete', 'rowDescription', 'dataRow', 'commandComplete', 'emptyQuery', 'portalSuspended',
  'readyForQuery', 'errorMessage', 'copyInResponse', 'copyData',
];

/**
 * One PostgreSQL connection in pipeline mode: units (statements that share one implicit
 * transaction, ended by one Sync) are written as soon as they are sent, without waiting for the
 * units before them, and PostgreSQL runs and answers them in the order they were written. A room
 * whose statements all travel on one lane therefore has them applied in order, while each costs
 * one round trip of its own latency, not one behind another.
 *
 * pg's Client does the connecting and authenticating; after that the lane reads the protocol
 * messages itself (pg's Client allows one query at a time). A connection that breaks, or whose
 * unit runs out of time, is reset: every unit on it fails, and the next unit opens a new one.
 */
export class CommitLane {
  private connecting?: Promise<LaneConnection>;

  constructor(private readonly config: ClientConfig, private readonly connectTimeoutMs: number) {}

  /**
   * Sends a unit now (written before this returns when the lane is connected); resolves with each
   * statement's rows once its Sync has been answered.
   */
  send(statements: readonly LaneStatement[], timeoutMs: number): Promise<QueryResultRow[][]> {
    if (this.ready) return this.current!.send(statements, timeoutMs);
    // The connection's time comes out of the unit's: the caller's budget holds, connecting included.
    const deadline = performance.now() + timeoutMs;
    return this.connection(timeoutMs).then((c) => c.send(statements, deadline - performance.now()));
  }

  /** Units sent inside `send` leave in one write to the socket (one system call, not one each). */
  together(send: () => void): void {
    const stream = this.ready ? this.current!.stream : undefined;
    stream?.cork();
    try {
      send();
    } finally {
      stream?.uncork();
    }
  }

  /** Units in flight on this lane. */
  get inFlight(): number {
    return this.current?.inFlight ?? 0;
  }

  /** Connected: a unit sent now is written at once, without paying for a connection first. */
  get ready(): boolean {
    return !!this.current && !this.current.broken;
  }

  /**
   * Connects in the background when not connected, so that the lanes are open before rooms are
   * placed on them (a connection costs a few round trips; through a 30 ms link, about 130 ms).
   * A failed attempt is not repeated for a second: a database that is down is not hammered.
   */
  warm(): void {
    if (this.ready || this.connecting || performance.now() - this.lastFailure < RETRY_CONNECT_MS) return;
    this.connection(this.connectTimeoutMs).catch(() => (this.lastFailure = performance.now()));
  }

  private lastFailure = -Infinity;

  private current?: LaneConnection;

  private connection(timeoutMs: number): Promise<LaneConnection> {
    if (this.ready) return Promise.resolve(this.current!);
    this.connecting ??= this.open().then(
      (c) => ((this.current = c), (this.connecting = undefined), c),
      (err) => {
        this.connecting = undefined;
        throw err;
      },
    );
    return withTimeout(this.connecting, Math.min(timeoutMs, this.connectTimeoutMs), 'connecting');
  }

  private async open(): Promise<LaneConnection> {
    const client = new Client({ ...this.config, connectionTimeoutMillis: this.connectTimeoutMs });
    // A lane's errors reach its units; unheard, an 'error' event would end the process.
    client.on('error', () => undefined);
    await client.connect();
    return new LaneConnection(client);
  }

  async close(): Promise<void> {
    const c = this.current;
    this.current = undefined;
    if (c) await c.close();
  }
}

class LaneConnection {
  private readonly units: Unit[] = [];
  /** Statement names whose Parse has been written on this connection. */
  private readonly parsed = new Set<string>();
  broken?: Error;

  constructor(private readonly client: Client) {
    const con = (client as unknown as { connection: PgConnection }).connection;
    this.con = con;
    for (const name of UNIT_MESSAGES) con.removeAllListeners(name);
    con.on('parseComplete', () => this.head().parsedCount++);
    con.on('rowDescription', (m: { fields: unknown[] }) => {
      const r = new Result();
      r.addFields(m.fields);
      this.head().current = r;
    });
    con.on('dataRow', (m: { fields: unknown[] }) => {
      const u = this.head();
      u.current?.rows.push(u.current.parseRow(m.fields));
    });
    con.on('commandComplete', () => {
      const u = this.head();
      u.rows.push(u.current?.rows ?? []);
      u.current = undefined;
    });
    con.on('emptyQuery', () => this.head().rows.push([]));
    con.on('errorMessage', (err: unknown) => {
      if (this.units.length === 0) return this.fail(new LaneBroken('an error from PostgreSQL with no unit in flight', err));
      this.head().error = err;
    });
    con.on('readyForQuery', () => {
      const u = this.units.shift();
      if (!u) return;
      // A Parse that never completed prepared nothing: the next unit that needs it parses it again.
      for (const name of u.parses.slice(u.parsedCount)) this.parsed.delete(name);
      if (u.error) u.reject(u.error);
      else u.resolve(u.rows);
    });
    client.on('error', (err) => this.fail(new LaneBroken('the lane connection failed', err)));
    client.on('end', () => this.fail(new LaneBroken('the lane connection ended')));
  }

  private readonly con: PgConnection;

  get stream(): PgConnection['stream'] {
    return this.con.stream;
  }

  get inFlight(): number {
    return this.units.length;
  }

  send(statements: readonly LaneStatement[], timeoutMs: number): Promise<QueryResultRow[][]> {
    if (this.broken) return Promise.reject(this.broken);
    if (timeoutMs <= 0) return Promise.reject(new LaneBroken('no time left to send the statement'));
    const sent = new Promise<QueryResultRow[][]>((resolve, reject) => {
      const unit: Unit = { statements, parses: [], parsedCount: 0, rows: [], resolve, reject };
      const stream = this.con.stream;
      // One write for the whole unit: it leaves in as few packets as the kernel allows.
      stream.cork();
      // Every Parse first: a statement refused before its Parse would otherwise leave the name
      // unprepared for the units that follow it on this connection.
      for (const s of statements) {
        if (this.parsed.has(s.name)) continue;
        this.con.parse({ name: s.name, text: s.text, types: [] });
        this.parsed.add(s.name);
        unit.parses.push(s.name);
      }
      for (const s of statements) {
        this.con.bind({ statement: s.name, values: s.values as unknown[], valueMapper: prepareValue });
        this.con.describe({ type: 'P', name: '' });
        this.con.execute({ portal: '', rows: 0 });
      }
      this.con.sync();
      stream.uncork();
      this.units.push(unit);
    });
    return withTimeout(sent, timeoutMs, 'waiting for PostgreSQL', () => this.fail(new LaneBroken(`no answer within ${Math.round(timeoutMs)} ms; connection reset`)));
  }

  /** Every unit in flight fails; the socket is reset so nothing still queued can reach PostgreSQL later. */
  fail(err: Error): void {
    if (this.broken) return;
    this.broken = err;
    for (const u of this.units.splice(0)) u.reject(err);
    const stream = this.con.stream as { resetAndDestroy?: () => void; destroy: () => void };
    if (typeof stream.resetAndDestroy === 'function') stream.resetAndDestroy();
    else stream.destroy();
  }

  async close(): Promise<void> {
    if (this.broken) return;
    this.broken = new LaneBroken('the lane was closed');
    for (const u of this.units.splice(0)) u.reject(this.broken);
    await this.client.end().catch(() => undefined);
  }

  private head(): Unit {
    const u = this.units[0];
    if (!u) throw new LaneBroken('a message from PostgreSQL with no unit in flight');
    return u;
  }
}

interface PgConnection {
  readonly stream: { cork(): void; uncork(): void; resetAndDestroy?: () => void; destroy(): void };
  removeAllListeners(event: string): void;
  on(event: string, listener: (...args: any[]) => void): void;
  parse(q: { name: string; text: string; types: unknown[] }): void;
  bind(q: { statement: string; values: unknown[]; valueMapper: (v: unknown) => unknown }): void;
  describe(q: { type: 'P'; name: string }): void;
  execute(q: { portal: string; rows: number }): void;
  sync(): void;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onLate?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const late = () => {
      onLate?.();
      reject(new LaneBroken(`no answer within ${Math.round(Math.max(0, ms))} ms (${what})`));
    };
    if (ms <= 0) return late();
    const timer = setTimeout(late, ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
