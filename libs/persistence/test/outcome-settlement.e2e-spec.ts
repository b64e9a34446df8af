import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { RoomPosition } from '@app/room-engine';
import { DelayProxy } from '@app/bot-kit';
import {
  Database,
  DatabaseUnavailableError,
  JournalEntry,
  JournalRepository,
  openDataSource,
  RoomRepository,
  SettledOutcome,
  StatementMeter,
} from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase, holdTable, writeWaitsOn } from '../../../test/support/database';

/** Short, so that the tests are quick. Every answer of a healthy database here comes far sooner. */
const SILENCE_MS = 500;

/**
 * A room's statement whose answer is lost (PostgreSQL went silent after it was written) is neither
 * a success nor a failure until the database says which. The server process that had it is ended,
 * the room's head is read, and only then does the caller hear. Meanwhile the room's next statement
 * waits. These tests use real PostgreSQL, through a proxy that can go silent.
 */
describe('a statement whose outcome is unknown', () => {
  let url: string;
  let proxy: DelayProxy;
  let dataSource: DataSource;
  let db: Database;
  let journal: JournalRepository;
  let rooms: RoomRepository;
  let admin: Client;
  const settled: SettledOutcome[] = [];

  beforeAll(async () => {
    url = await createTestDatabase();
    const target = new URL(url);
    proxy = new DelayProxy({ host: target.hostname, port: Number(target.port) }, 0);
    await proxy.start();
    const meter = new StatementMeter();
    meter.observe({ settled: (outcome) => settled.push(outcome) });
    dataSource = await openDataSource({ url: proxy.proxiedUrl(url), poolMax: 2, migrations: MIGRATIONS }, meter);
    db = new Database(dataSource, meter, 900, 1, SILENCE_MS);
    journal = new JournalRepository(db);
    rooms = new RoomRepository(db);
    admin = new Client({ connectionString: url });
    await admin.connect();
  });

  afterEach(() => {
    proxy.restore();
    settled.length = 0;
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
    await admin?.end();
    await proxy?.stop();
  });

  async function newRoom(): Promise<string> {
    const id = randomUUID();
    const code = randomBytes(3).toString('hex').toUpperCase();
    expect(await rooms.openRoom({ id, code, game: 'tally', seed: 7, settings: {}, snapshot: { atMs: 1, state: { opened: true } } })).toBe(
      'created',
    );
    return id;
  }

  const at = (roomId: string, seq: number): RoomPosition => ({ roomId, seq, fence: 0 });
  const entry = (id: string): JournalEntry => ({
    kind: 'command',
    atMs: 1,
    actor: { role: 'player', seat: 's1' },
    commandId: id,
    body: { id },
  });
  const head = async (roomId: string) =>
    (await admin.query('SELECT commit_seq::int AS seq FROM room_heads WHERE room_id = $1', [roomId])).rows[0].seq;
  const journaled = async (roomId: string) =>
    (await admin.query('SELECT command_id AS id FROM room_journal WHERE room_id = $1 ORDER BY seq', [roomId])).rows.map((r) => r.id);

  async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = performance.now() + 15_000;
    while (!(await condition())) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const writeWaiting = () => until(() => writeWaitsOn(admin, 'room_journal'), 'a write waiting on the journal');

  it('succeeds, late, when it committed though its answer never came; the room’s next statement waited for it', async () => {
    const room = await newRoom();
    const release = await holdTable(url, 'room_journal');
    const first = journal.append([entry('committed')], at(room, 0), 900);
    await writeWaiting();
    // The link goes silent both ways. PostgreSQL then commits, and its answer is lost.
    proxy.blackHole();
    await release();
    await until(async () => (await head(room)) === 1, 'the commit');
    // Once the lane takes the quiet for silence, the first statement is in doubt (the settler cannot
    // ask yet, and keeps trying). The room's next statement must not leave before the first is settled.
    await new Promise((r) => setTimeout(r, SILENCE_MS * 3));
    const second = journal.append([entry('behind')], at(room, 1), 60_000);
    await new Promise((r) => setTimeout(r, SILENCE_MS));
    expect(await journaled(room)).toEqual(['committed']);
    proxy.restore();
    await expect(first).resolves.toEqual({});
    await expect(second).resolves.toEqual({});
    expect(await journaled(room)).toEqual(['committed', 'behind']);
    expect(await head(room)).toBe(2);
    expect(settled).toEqual(['recorded']);
  });

  it('fails as unavailable when it never reached PostgreSQL, and so does the statement behind it', async () => {
    const room = await newRoom();
    // Connect the lane first, because a statement that could not connect would be refused before it is written.
    await journal.append([entry('before')], at(room, 0), 5000);
    proxy.blackHole();
    const caught = journal.append([entry('lost')], at(room, 1), 900).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, SILENCE_MS * 3));
    const second = journal.append([entry('behind')], at(room, 2), 60_000).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, SILENCE_MS));
    proxy.restore();
    const err = await caught;
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as Error).message).toMatch(/PostgreSQL said nothing for \d+ ms; connection reset; it was not recorded/);
    expect(await second).toMatchObject({
      name: 'DatabaseUnavailableError',
      message: expect.stringMatching(/a statement before it was not recorded/),
    });
    expect(await journaled(room)).toEqual(['before']);
    expect(await head(room)).toBe(1);
    expect(settled).toEqual(['not_recorded']);
    // The room goes on from where the database stands.
    await expect(journal.append([entry('after')], at(room, 1), 5000)).resolves.toEqual({});
  });
});
