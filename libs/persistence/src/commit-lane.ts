import { Socket } from 'node:net';
import { Client, ClientConfig, QueryResult, QueryResultRow } from 'pg';
import { SilenceWatch } from './silence-watch';

/** One statement of a unit: its name (also its prepared statement's name), its SQL and its values. */
export interface LaneStatement {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

interface Unit {
  readonly resolve: (rows: QueryResultRow[][]) => void;
  readonly reject: (err: unknown) => void;
}

/** A unit could not be written, because there was no connection, or none in time. Nothing of it reached PostgreSQL. */
export class LaneBroken extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'LaneBroken';
  }
}

/**
 * A unit was written, and then its connection failed, or PostgreSQL went silent on it, before its
 * answer came. So it may or may not have committed. `backendPid` is the server process that had
 * the unit. Once that process is gone, the room's head says which it was (this is how
 * OrderedStatements settles it).
 */
export class OutcomeUnknown extends Error {
  constructor(
    message: string,
    readonly backendPid: number,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'OutcomeUnknown';
  }
}

const RETRY_CONNECT_MS = 1000;

/**
 * One PostgreSQL connection in pg's pipeline mode (`pipeline: true`). Units (statements that share
 * one transaction) are written as soon as they are sent, without waiting for the units before
 * them, and PostgreSQL runs and answers them in the order they were written. So when all of a
 * room's statements travel on one lane, they are applied in order, and each costs one round trip
 * of its own latency rather than waiting behind another.
 *
 * pg ends every query with its own Sync, so a unit is `BEGIN`, its statements and `COMMIT`, all in
 * the same write: one transaction, one round trip. A statement that fails aborts the transaction.
 * The statements after it are refused without running, and `COMMIT` rolls the transaction back.
 * The units behind it, each in its own transaction, proceed.
 *
 * A unit that was written waits for its answer however long it takes. No caller's budget ends it,
 * and no unit's lateness affects the units beside it. Only two things end the connection: real
 * silence from PostgreSQL (nothing heard on the connection for `silenceMs` of this process's own
 * waking time; see SilenceWatch), or a connection that breaks. The connection is then reset, and
 * every unit on it fails with OutcomeUnknown, to be settled by whoever reads the database. The
 * next unit opens a new connection.
 */
export class CommitLane {
  private connecting?: Promise<LaneConnection>;

  constructor(
    private readonly config: ClientConfig,
    private readonly connectTimeoutMs: number,
    private readonly silenceMs: number,
  ) {}

  /**
   * Sends a unit now. When the lane is connected, the unit is written before this returns. Resolves
   * with each statement's rows once the unit's transaction has committed. When the lane must
   * connect first, it gives up after `connectWithinMs` with LaneBroken, having written nothing.
   */
  send(statements: readonly LaneStatement[], connectWithinMs: number): Promise<QueryResultRow[][]> {
    if (this.ready) return this.current!.send(statements);
    return this.connection(connectWithinMs).then((c) => c.send(statements));
  }

  /** Makes the units sent inside `send` leave in one write to the socket (one system call rather than one each). */
  together(send: () => void): void {
    const socket = this.ready ? this.current!.socket : undefined;
    socket?.cork();
    try {
      send();
    } finally {
      socket?.uncork();
    }
  }

  /** How many units are in flight on this lane. */
  get inFlight(): number {
    return this.current?.inFlight ?? 0;
  }

  /** Whether the lane is connected, so that a unit sent now is written at once without paying for a connection first. */
  get ready(): boolean {
    return !!this.current && !this.current.broken;
  }

  /**
   * Connects in the background when not connected, so that the lanes are open before rooms are
   * placed on them. A connection costs a few round trips (about 130 ms through a 30 ms link). A
   * failed attempt is not repeated for a second, so that a database that is down is not hammered.
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
    // The lane makes the socket itself (pg's `stream` option) so that it can cork it and reset it.
    let socket: Socket | undefined;
    const client = new Client({
      ...this.config,
      pipeline: true,
      connectionTimeoutMillis: this.connectTimeoutMs,
      stream: () => (socket = new Socket()),
    });
    // A lane's errors reach its units. If nobody listened, an 'error' event would end the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      socket?.destroy();
      // Whatever pg says (a refused link, its own `timeout expired`), nothing was written yet.
      throw new LaneBroken(`could not connect: ${err instanceof Error ? err.message : String(err)}`, err);
    }
    return new LaneConnection(client, socket!, this.silenceMs);
  }

  async close(): Promise<void> {
    const c = this.current;
    this.current = undefined;
    if (c) await c.close();
  }
}

class LaneConnection {
  /** Units written and not answered yet, oldest first, because pg answers its queries in order. */
  private readonly units: Unit[] = [];
  /** Statement names that PostgreSQL has prepared on this connection, as shown by a query by that name that succeeded. */
  private readonly prepared = new Set<string>();
  /** Names whose first query by name is in flight. Until it answers, other units send their statements unnamed. */
  private readonly preparing = new Set<string>();
  /**
   * Names that pg closed on this connection when it could not convert a value for them. pg still
   * takes them for prepared, so queries by those names would fail. From then on, they are sent
   * unnamed.
   */
  private readonly lost = new Set<string>();
  broken?: Error;
  private readonly silence: SilenceWatch;

  constructor(
    private readonly client: Client,
    readonly socket: Socket,
    silenceMs: number,
  ) {
    client.on('error', (err) => this.fail(`the lane connection failed (${err.message})`, err));
    client.on('end', () => this.fail('the lane connection ended'));
    this.silence = new SilenceWatch(
      silenceMs,
      () => this.units.length > 0,
      (quietMs) => this.fail(`PostgreSQL said nothing for ${Math.round(quietMs)} ms; connection reset`),
    );
    socket.on('data', () => this.silence.heard());
  }

  get inFlight(): number {
    return this.units.length;
  }

  send(statements: readonly LaneStatement[]): Promise<QueryResultRow[][]> {
    if (this.broken) return Promise.reject(new LaneBroken('the lane connection is broken', this.broken));
    return new Promise<QueryResultRow[][]>((resolve, reject) => {
      const unit: Unit = { resolve, reject };
      this.units.push(unit);
      this.silence.start();
      // Make one write for the whole unit, so it leaves in as few packets as the kernel allows.
      this.socket.cork();
      try {
        this.write(statements, (err, rows) => {
          this.settled(unit);
          if (err === undefined) resolve(rows);
          else reject(err);
        });
      } finally {
        this.socket.uncork();
      }
    });
  }

  /** Writes a unit as BEGIN, its statements and COMMIT. `done` gets the unit's error, or each statement's rows. */
  private write(statements: readonly LaneStatement[], done: (err: unknown, rows: QueryResultRow[][]) => void): void {
    const rows: QueryResultRow[][] = [];
    // The first error is the unit's error. The statements after it only say that the transaction was aborted.
    let error: unknown;
    const note = (err: Error | null | undefined) => {
      if (err) error ??= err;
    };
    // pg reports a value it cannot convert at once, while the unit is still being written.
    let writing = true;
    this.client.query('BEGIN', note);
    statements.forEach((s, i) => {
      const name = this.nameFor(s.name);
      this.client.query(
        { name, text: s.text, values: [...s.values] },
        once((err: Error | undefined, result?: QueryResult) => {
          if (name) this.answered(name, !err);
          if (name && err && writing) this.lost.add(name);
          note(err);
          if (!err) rows[i] = result!.rows;
        }),
      );
    });
    writing = false;
    // If pg could not send a statement, roll back the ones before it rather than commit them alone.
    this.client.query(error === undefined ? 'COMMIT' : 'ROLLBACK', (err: Error | undefined, result?: QueryResult) => {
      note(err);
      // A COMMIT of an aborted transaction answers ROLLBACK without an error of its own, so make one.
      if (!err && result!.command !== 'COMMIT') error ??= new Error(`the unit's transaction ended with ${result!.command}`);
      done(error, rows);
    });
  }

  /**
   * The name a statement is sent by, or undefined to send it unnamed. pg parses a name the first
   * time it sends it, and trusts that it is prepared after that. But a Parse in a transaction that
   * an earlier statement aborted is refused. So a unit written behind the one that parses a name
   * must not count on that name: it sends its statement unnamed (parsed again, but still in its
   * own transaction and round trip).
   */
  private nameFor(name: string): string | undefined {
    if (this.lost.has(name)) return undefined;
    if (this.prepared.has(name)) return name;
    if (this.preparing.has(name)) return undefined;
    this.preparing.add(name);
    return name;
  }

  /** Called when a query by this name answered. If it succeeded, PostgreSQL has the statement from now on. */
  private answered(name: string, ok: boolean): void {
    this.preparing.delete(name);
    if (ok) this.prepared.add(name);
  }

  private settled(unit: Unit): void {
    const i = this.units.indexOf(unit);
    if (i >= 0) this.units.splice(i, 1);
  }

  /**
   * Fails the connection. Every unit in flight was written and will get no answer now, so each
   * fails with OutcomeUnknown. The socket is reset, so nothing the kernel still holds for
   * PostgreSQL leaves after that.
   */
  private fail(why: string, cause?: unknown): void {
    if (this.broken) return;
    this.broken = new LaneBroken(why, cause);
    this.silence.stop();
    const unknown = new OutcomeUnknown(why, (this.client as unknown as { processID?: number }).processID ?? 0, cause);
    for (const u of this.units.splice(0)) u.reject(unknown);
    if (typeof this.socket.resetAndDestroy === 'function') this.socket.resetAndDestroy();
    else this.socket.destroy();
  }

  async close(): Promise<void> {
    if (this.broken) return;
    // Units still in flight cannot be heard from once the lane closes, so their outcome is unknown.
    if (this.units.length > 0) return this.fail('the lane was closed');
    this.broken = new LaneBroken('the lane was closed');
    this.silence.stop();
    await this.client.end().catch(() => undefined);
  }
}

/**
 * Wraps a callback so that it runs once. pg answers a query whose values it could not convert
 * twice: first with the error, then for the Sync it sent.
 */
function once<A extends unknown[]>(f: (...args: A) => void): (...args: A) => void {
  let called = false;
  return (...args) => {
    if (called) return;
    called = true;
    f(...args);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const late = () => reject(new LaneBroken(`no answer within ${Math.round(Math.max(0, ms))} ms (${what})`));
    if (ms <= 0) return late();
    const timer = setTimeout(late, ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
