import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { Client, QueryResultRow } from 'pg';
import { createTestDatabase } from '../../../test/support/database';
import { CommitLane, LaneStatement, OutcomeUnknown } from './commit-lane';

// These tests run a lane against the real PostgreSQL, through a TCP proxy that keeps what the lane
// wrote and sees how its connection ended. The schema is the spec's own, because the lane knows
// none: a head per room, whose number a guard moves on or refuses with GR001 as ADVANCE does, and
// a log that the writes add to.

const SCHEMA = `
  CREATE TABLE heads (room int PRIMARY KEY, seq bigint NOT NULL DEFAULT 0);
  INSERT INTO heads (room) SELECT generate_series(1, 9);
  CREATE TABLE log (id bigserial PRIMARY KEY, room int NOT NULL, entry text NOT NULL CHECK (entry <> 'bad'));
  CREATE FUNCTION refuse(room int) RETURNS int LANGUAGE plpgsql AS $$
  BEGIN RAISE EXCEPTION 'out of order' USING ERRCODE = 'GR001', DETAIL = room::text; END $$;
`;
const GUARD = `WITH advanced AS (UPDATE heads SET seq = seq + 1 WHERE room = $1 AND seq = $2 RETURNING room)
  SELECT refuse($1) FROM advanced HAVING count(*) = 0`;

const guard = (room: number, seq: number): LaneStatement => ({ name: 'guard', text: GUARD, values: [room, seq] });
const write = (room: number, entry: string): LaneStatement => ({
  name: 'write',
  text: 'INSERT INTO log (room, entry) VALUES ($1, $2) RETURNING entry',
  values: [room, entry],
});
const unit = (room: number, seq: number, entry: string) => [guard(room, seq), write(room, entry)];

/** Short, so that the tests of silence are quick. Every answer in these tests comes far sooner. */
const SILENCE_MS = 600;

/** Keeps this process's event loop busy for `ms`. It is a real stall, like the one a starved or stopped process has. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe(CommitLane.name, () => {
  let url: string;
  let admin: Client;
  let proxy: RecordingProxy;
  let lane: CommitLane;

  beforeAll(async () => {
    url = await createTestDatabase();
    admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(SCHEMA);
  });

  beforeEach(async () => {
    await admin.query('TRUNCATE log; UPDATE heads SET seq = 0');
    proxy = new RecordingProxy(new URL(url));
    lane = new CommitLane({ connectionString: proxy.url(await proxy.start()) }, 10_000, SILENCE_MS);
  });

  afterEach(async () => {
    for (const release of lockers) await release();
    await lane.close();
    await proxy.stop();
  });

  afterAll(async () => {
    await admin?.end();
  });

  const entries = async () => (await admin.query<{ entry: string }>('SELECT entry FROM log ORDER BY id')).rows.map((r) => r.entry);
  const seqs = async () =>
    (await admin.query<{ room: number; seq: string }>('SELECT room, seq FROM heads WHERE seq > 0 ORDER BY room')).rows;

  /** Locks `log` so that a unit's write waits. The returned function (or the test's end) releases it. */
  async function holdLog(): Promise<() => Promise<void>> {
    const locker = new Client({ connectionString: url });
    await locker.connect();
    await locker.query('BEGIN; LOCK TABLE log IN EXCLUSIVE MODE');
    const release = () => (lockers.delete(release), locker.end());
    lockers.add(release);
    return release;
  }
  const lockers = new Set<() => Promise<void>>();
  const untilWaitingOnLog = () =>
    until(
      async () => (await admin.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'log'::regclass`)).rowCount === 1,
      'a write waiting for the lock on log',
    );
  async function backendPid(): Promise<number> {
    const [rows] = await lane.send([{ name: 'pid', text: 'SELECT pg_backend_pid() AS pid', values: [] }], 10_000);
    return rows[0].pid;
  }
  /** Sends the units in one together(), written at once one behind the other, and returns each one's outcome. */
  function sendTogether(...units: LaneStatement[][]): Promise<PromiseSettledResult<QueryResultRow[][]>[]> {
    const sent: Promise<QueryResultRow[][]>[] = [];
    lane.together(() => {
      for (const u of units) sent.push(lane.send(u, 10_000));
    });
    return Promise.allSettled(sent);
  }

  it('writes each unit without waiting for the ones before it, and answers them in order', async () => {
    await lane.send(unit(1, 0, 'first'), 10_000);
    const release = await holdLog();
    const answered: number[] = [];
    const sent = [1, 2, 3, 4].map((i) => lane.send(unit(1, i, `u${i}`), 10_000).then((rows) => (answered.push(i), rows)));
    await untilWaitingOnLog();
    // The last unit's bytes reach PostgreSQL while the first unit's write still waits.
    await until(() => proxy.written.includes('u4'), "the last unit's bytes at PostgreSQL");
    expect(lane.inFlight).toBe(4);
    await release();
    const rows = await Promise.all(sent);
    expect(answered).toEqual([1, 2, 3, 4]);
    expect(rows).toEqual([1, 2, 3, 4].map((i) => [[], [{ entry: `u${i}` }]]));
    expect(await entries()).toEqual(['first', 'u1', 'u2', 'u3', 'u4']);
    expect(await seqs()).toEqual([{ room: 1, seq: '5' }]);
    expect(lane.inFlight).toBe(0);
  });

  it('sends the units of one together() in a single write', async () => {
    await lane.send(unit(1, 0, 'first'), 10_000);
    // Every write a socket hands to the kernel goes through one of net.Socket's two writers, which are watched, not replaced.
    const writers = (['_write', '_writev'] as const).map((m) => jest.spyOn(Socket.prototype as unknown as Record<typeof m, () => void>, m));
    const settled = sendTogether(unit(2, 0, 't1'), unit(3, 0, 't2'), unit(4, 0, 't3'));
    const writes = writers.flatMap((w) => w.mock.contexts).filter((socket) => (socket as Socket).remotePort === proxy.port).length;
    for (const w of writers) w.mockRestore();
    expect(writes).toBe(1);
    expect((await settled).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(await entries()).toEqual(['first', 't1', 't2', 't3']);
  });

  it('fails a unit the guard refuses alone: nothing of it applies, and the units behind it run', async () => {
    // The refused unit is the first to use both names on this connection, so the unit written
    // behind it must not count on a Parse that PostgreSQL refused in the aborted transaction.
    const [refused, behind] = await sendTogether(unit(1, 7, 'refused'), unit(2, 0, 'behind'));
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'GR001', detail: '1' } });
    expect(behind).toEqual({ status: 'fulfilled', value: [[], [{ entry: 'behind' }]] });
    // PostgreSQL has both names prepared now, so later units bind them without parsing again.
    await lane.send(unit(2, 1, 'after'), 10_000);
    const [prepared] = await lane.send(
      [{ name: 'prepared', text: 'SELECT name FROM pg_prepared_statements ORDER BY name', values: [] }],
      10_000,
    );
    expect(prepared.map((r) => r.name)).toEqual(expect.arrayContaining(['guard', 'write']));
    expect(await entries()).toEqual(['behind', 'after']);
    expect(await seqs()).toEqual([{ room: 2, seq: '2' }]);
  });

  it('rolls back the guard of a unit whose write fails, and runs the units behind it', async () => {
    const [failed, good] = await sendTogether(unit(1, 0, 'bad'), unit(2, 0, 'good'));
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: '23514' } });
    expect(good).toMatchObject({ status: 'fulfilled' });
    expect(await entries()).toEqual(['good']);
    expect(await seqs()).toEqual([{ room: 2, seq: '1' }]);
  });

  it('fails a unit with a value pg cannot convert alone: nothing of it applies, and its statement still serves later units', async () => {
    await lane.send(unit(1, 0, 'first'), 10_000);
    const unconvertible = {
      toPostgres: () => {
        throw new Error('no text for this value');
      },
    };
    const [failed, behind] = await sendTogether([guard(2, 0), { ...write(2, ''), values: [2, unconvertible] }], unit(3, 0, 'behind'));
    expect(failed).toMatchObject({ status: 'rejected', reason: { message: 'no text for this value' } });
    expect(behind).toMatchObject({ status: 'fulfilled' });
    // pg closed the statement it could not bind, yet still takes it for prepared, and the lane copes with that.
    await lane.send(unit(2, 0, 'after'), 10_000);
    expect(await entries()).toEqual(['first', 'behind', 'after']);
    expect(await seqs()).toEqual([
      { room: 1, seq: '1' },
      { room: 2, seq: '1' },
      { room: 3, seq: '1' },
    ]);
  });

  it('waits for a unit that answers later than any budget, and the units beside it are untouched', async () => {
    const before = await backendPid();
    const release = await holdLog();
    const late = lane.send(unit(1, 0, 'late'), 300);
    const beside = lane.send(unit(2, 0, 'beside'), 300);
    await untilWaitingOnLog();
    // PostgreSQL is busy, not silent: it waits on locks, and answering after them is up to it.
    await new Promise((r) => setTimeout(r, SILENCE_MS / 2));
    await release();
    expect(await late).toEqual([[], [{ entry: 'late' }]]);
    expect(await beside).toEqual([[], [{ entry: 'beside' }]]);
    expect(proxy.ends).toEqual([]);
    expect(await backendPid()).toBe(before);
  });

  it('does not take its own stall for PostgreSQL’s silence: answers that came meanwhile are read first', async () => {
    const before = await backendPid();
    const slow = lane.send([{ name: 'nap', text: 'SELECT true AS slept FROM pg_sleep(0.1)', values: [] }], 10_000);
    // The answer arrives while this process is busy for far longer than the silence the lane allows.
    stall(SILENCE_MS * 3);
    expect(await slow).toEqual([[{ slept: true }]]);
    expect(proxy.ends).toEqual([]);
    expect(await backendPid()).toBe(before);
  });

  it('resets a lane PostgreSQL is silent on: its units fail with OutcomeUnknown, though one of them committed', async () => {
    const pid = await backendPid();
    proxy.muted = true;
    const [answered] = await sendTogether(unit(1, 0, 'committed, unheard'));
    expect(answered.status).toBe('rejected');
    const lost = (answered as PromiseRejectedResult).reason;
    expect(lost).toBeInstanceOf(OutcomeUnknown);
    expect(lost).toMatchObject({
      backendPid: pid,
      message: expect.stringMatching(/^PostgreSQL said nothing for \d+ ms; connection reset$/),
    });
    // The connection ends with a reset, not a goodbye, so the kernel drops what it still held for PostgreSQL.
    await until(() => proxy.ends.length === 1, 'the proxy to see the connection end');
    expect(proxy.ends).toEqual(['ECONNRESET']);
    expect(await entries()).toEqual(['committed, unheard']);
    proxy.muted = false;
    expect(lane.ready).toBe(false);
    expect(await lane.send(unit(3, 0, 'next'), 10_000)).toEqual([[], [{ entry: 'next' }]]);
    expect(await backendPid()).not.toBe(pid);
  });

  it('fails the units written on a connection that breaks with OutcomeUnknown', async () => {
    const pid = await backendPid();
    const release = await holdLog();
    const written = lane.send(unit(1, 0, 'cut'), 10_000);
    await untilWaitingOnLog();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await expect(written).rejects.toMatchObject({ name: 'OutcomeUnknown', backendPid: pid });
    await release();
    expect(await entries()).toEqual([]);
  });

  it('counts connecting in the unit’s time', async () => {
    proxy.silent = true;
    await expect(lane.send(unit(1, 0, 'never'), 300)).rejects.toThrow(/connecting/);
    expect(lane.ready).toBe(false);
  });

  it('converts values and rows as pg does for any other query', async () => {
    const text = `SELECT $1::int[] AS ints, $2::int[] AS grid, $3::text[] AS texts, $4::jsonb AS doc, $5::json AS list,
      $6::bigint AS big, $7::timestamptz AS at, $8::bytea AS bytes, $9::bool AS yes, $10::float8 AS ratio, $11::text AS nothing, $12::uuid[] AS ids`;
    const values = [
      [1, 2, 3],
      [
        [1, 2],
        [3, 4],
      ],
      ['a', 'b,c', '"quoted"', 'back\\slash', null, ''],
      { nested: [1, { deep: null }], s: 'é' },
      JSON.stringify([{ a: 1 }, 'two']),
      2n ** 62n,
      new Date('2026-12-02T10:20:30.456Z'),
      Buffer.from([0, 1, 254, 255]),
      true,
      0.1,
      undefined,
      ['00000000-0000-4000-8000-000000000001'],
    ];
    const [[row]] = await lane.send([{ name: 'values', text, values }], 10_000);
    const pooled = (await admin.query(text, values)).rows[0];
    expect(row).toEqual(pooled);
    expect(row).toEqual({
      ints: [1, 2, 3],
      grid: [
        [1, 2],
        [3, 4],
      ],
      texts: ['a', 'b,c', '"quoted"', 'back\\slash', null, ''],
      doc: { nested: [1, { deep: null }], s: 'é' },
      list: [{ a: 1 }, 'two'],
      big: '4611686018427387904',
      at: new Date('2026-12-02T10:20:30.456Z'),
      bytes: Buffer.from([0, 1, 254, 255]),
      yes: true,
      ratio: 0.1,
      nothing: null,
      ids: ['00000000-0000-4000-8000-000000000001'],
    });
  });
});

/** Polls `condition` until it holds, or fails after a hard limit. */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A TCP proxy to PostgreSQL for one lane. It keeps every byte the lane wrote, and records how each
 * lane connection ended ('end', or the error's code). While `silent` is set, new connections are
 * held without a byte going through.
 */
class RecordingProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private sent: Buffer[] = [];
  readonly ends: string[] = [];
  silent = false;
  /** While set, PostgreSQL's answers are dropped on their way to the lane. */
  muted = false;

  constructor(private readonly target: URL) {}

  get written(): string {
    return Buffer.concat(this.sent).toString('latin1');
  }

  async start(): Promise<number> {
    const server = (this.server = createServer((lane) => this.accept(lane)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this.port;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(port: number): string {
    const via = new URL(this.target);
    via.hostname = '127.0.0.1';
    via.port = String(port);
    return via.toString();
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private accept(lane: Socket): void {
    this.sockets.add(lane);
    if (this.silent) return;
    const db = createConnection({ host: this.target.hostname, port: Number(this.target.port) });
    this.sockets.add(db);
    lane.on('data', (chunk) => {
      this.sent.push(chunk);
      db.write(chunk);
    });
    db.on('data', (chunk) => this.muted || lane.write(chunk));
    let ended = false;
    const end = (how: string) => {
      if (!ended) this.ends.push(how);
      ended = true;
      lane.destroy();
      db.destroy();
    };
    lane.on('end', () => end('end')).on('error', (err: NodeJS.ErrnoException) => end(err.code ?? err.message));
    db.on('close', () => lane.destroy()).on('error', () => lane.destroy());
  }
}
