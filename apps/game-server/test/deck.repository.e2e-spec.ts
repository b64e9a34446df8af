import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database, openDataSource, StatementMeter } from '@app/persistence';
import { DeckRepository, NewQuestion } from '../../../libs/server/src/decks/deck.repository';
import { BUILTIN_DECK_ID, MIGRATIONS } from '../../../migrations';
import { DeckEditTokens1764856800000 } from '../../../migrations/1764856800000-deck-edit-tokens';
import { createTestDatabase } from '../../../test/support/database';

const HASH = createHash('sha256').update('a token').digest();
const question = (text: string, choices = ['yes', 'no'], correct = 0): NewQuestion => ({ text, choices, correct });

describe(DeckRepository.name, () => {
  let dataSource: DataSource;
  let db: Database;
  let decks: DeckRepository;

  beforeAll(async () => {
    const meter = new StatementMeter();
    // Generous limits on a shared machine: a test's own set-up and races must not run into the server's 900 ms.
    dataSource = await openDataSource(
      { url: await createTestDatabase(), poolMax: 4, migrations: MIGRATIONS, statementTimeoutMs: 10_000 },
      meter,
    );
    db = new Database(dataSource, meter, 10_000, 1);
    decks = new DeckRepository(db);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  const questionRows = async (deckId: string) =>
    (await dataSource.query(`SELECT id::int, position, text FROM questions WHERE deck_id = $1 ORDER BY position`, [deckId])) as {
      id: number;
      position: number;
      text: string;
    }[];

  it('loadDeck gives the questions in the deck’s order with their right answers; null for an unknown id', async () => {
    const made = await decks.createDeck(
      'Order',
      [question('first', ['a', 'b', 'c'], 2), question('second'), question('third', ['x', 'y'], 1)],
      HASH,
    );
    expect(await decks.loadDeck(made.id)).toEqual({
      id: made.id,
      name: 'Order',
      builtin: false,
      questions: [
        { text: 'first', choices: ['a', 'b', 'c'], correct: 2 },
        { text: 'second', choices: ['yes', 'no'], correct: 0 },
        { text: 'third', choices: ['x', 'y'], correct: 1 },
      ],
    });
    expect(await decks.loadDeck('11111111-1111-4111-8111-111111111111')).toBeNull();
    const builtin = await decks.loadDeck(BUILTIN_DECK_ID);
    expect(builtin?.questions.length).toBeGreaterThanOrEqual(200);
  });

  it('findDeck says who may edit: the hash it was made with; none for the built-in deck', async () => {
    const made = await decks.createDeck('Owned', [question('q')], HASH);
    expect(await decks.findDeck(made.id)).toMatchObject({ builtin: false, editTokenHash: HASH });
    expect(await decks.findDeck(BUILTIN_DECK_ID)).toMatchObject({ builtin: true, editTokenHash: null });
  });

  it('replaceDeck rewrites the questions in place by position: kept positions keep their row ids, extra ones go', async () => {
    const made = await decks.createDeck('Edit me', [question('one'), question('two'), question('three')], HASH);
    const before = await questionRows(made.id);
    expect(
      await decks.replaceDeck(made.id, 'Edited', [question('uno', ['si', 'no'], 1), question('dos', ['a', 'b', 'c', 'd', 'e', 'f'], 5)]),
    ).toBe(true);
    const after = await questionRows(made.id);
    expect(after).toEqual([
      { id: before[0].id, position: 0, text: 'uno' },
      { id: before[1].id, position: 1, text: 'dos' },
    ]);
    expect(await decks.loadDeck(made.id)).toMatchObject({
      name: 'Edited',
      questions: [{ correct: 1 }, { choices: ['a', 'b', 'c', 'd', 'e', 'f'], correct: 5 }],
    });
    // Growing again adds rows after the kept ones.
    expect(await decks.replaceDeck(made.id, 'Edited', [question('uno'), question('dos'), question('tres'), question('cuatro')])).toBe(true);
    expect((await questionRows(made.id)).map((r) => r.text)).toEqual(['uno', 'dos', 'tres', 'cuatro']);
  });

  it('refuses to replace or delete the built-in deck, a deck without a token, or a deleted one, and changes nothing', async () => {
    const builtinBefore = await questionRows(BUILTIN_DECK_ID);
    expect(await decks.replaceDeck(BUILTIN_DECK_ID, 'Mine now', [question('q')])).toBe(false);
    expect(await decks.deleteDeck(BUILTIN_DECK_ID)).toBe(false);
    expect(await questionRows(BUILTIN_DECK_ID)).toEqual(builtinBefore);
    expect((await decks.loadDeck(BUILTIN_DECK_ID))?.name).toBe('General knowledge');

    const untokened = await decks.createDeck('Old style', [question('q')]);
    expect(await decks.replaceDeck(untokened.id, 'x', [question('r')])).toBe(false);
    expect(await decks.deleteDeck(untokened.id)).toBe(false);
    expect((await decks.loadDeck(untokened.id))?.questions).toEqual([question('q')]);
  });

  it('deleteDeck removes the questions and hides the deck from lists and loads; its row stays for the rooms that name it', async () => {
    const made = await decks.createDeck('Short lived', [question('q1'), question('q2')], HASH);
    expect((await decks.listDecks([HASH], 100)).map((d) => d.id)).toContain(made.id);
    expect(await decks.deleteDeck(made.id)).toBe(true);
    expect(await decks.deleteDeck(made.id)).toBe(false);
    expect(await decks.loadDeck(made.id)).toBeNull();
    expect(await decks.findDeck(made.id)).toBeNull();
    expect(await decks.replaceDeck(made.id, 'Back', [question('q')])).toBe(false);
    expect((await decks.listDecks([HASH], 100)).map((d) => d.id)).not.toContain(made.id);
    expect(await questionRows(made.id)).toEqual([]);
    expect(await dataSource.query(`SELECT edit_token_hash, deleted_at IS NOT NULL AS deleted FROM decks WHERE id = $1`, [made.id])).toEqual(
      [{ edit_token_hash: null, deleted: true }],
    );
  });

  describe('listDecks', () => {
    const hash = (token: string) => createHash('sha256').update(token).digest();

    it("lists the built-in decks, then only the decks whose tokens' hashes are given, oldest first, with their questions counted", async () => {
      const [mine1, theirs, mine2] = [
        await decks.createDeck('Mine 1', [question('a'), question('b')], hash('mine-1')),
        await decks.createDeck('Theirs', [question('c')], hash('theirs')),
        await decks.createDeck('Mine 2', [question('d'), question('e'), question('f')], hash('mine-2')),
      ];
      const listed = await decks.listDecks([hash('mine-2'), hash('mine-1'), hash('unknown')], 100);
      expect(listed).toEqual([
        { id: BUILTIN_DECK_ID, name: 'General knowledge', builtin: true, questions: (await questionRows(BUILTIN_DECK_ID)).length },
        { id: mine1.id, name: 'Mine 1', builtin: false, questions: 2 },
        { id: mine2.id, name: 'Mine 2', builtin: false, questions: 3 },
      ]);
      expect(listed.map((d) => d.id)).not.toContain(theirs.id);
      // Without tokens, the built-in decks alone.
      expect((await decks.listDecks([], 100)).map((d) => d.id)).toEqual([BUILTIN_DECK_ID]);
    });

    it('pages by the last deck of the page before, and a cursor of another host changes nothing of what is listed', async () => {
      const other = await decks.createDeck('Not the pager', [question('q')], hash('someone else'));
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await decks.createDeck(`Paged ${i}`, [question('q')], hash('pager')));
      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = await decks.listDecks([hash('pager')], 2, after);
        if (page.length === 0) break;
        pages.push(page.map((d) => d.id));
        after = page[page.length - 1].id;
      }
      expect(pages).toEqual([
        [BUILTIN_DECK_ID, made[0].id],
        [made[1].id, made[2].id],
        [made[3].id, made[4].id],
      ]);
      // After another host's deck: the pager's decks made after it, and never that deck itself.
      expect((await decks.listDecks([hash('pager')], 10, other.id)).map((d) => d.id)).toEqual(made.map((d) => d.id));
    });

    it("finds its decks through indexes and counts their questions through one, whatever every other host's decks hold", async () => {
      // Many decks of other hosts, with their questions, as a real database holds them.
      for (let from = 1; from <= 3000; from += 250) {
        await dataSource.query(
          `WITH d AS (
             INSERT INTO decks (name, edit_token_hash) SELECT 'bulk ' || n, sha256(('bulk ' || n)::bytea) FROM generate_series($1::int, $1::int + 249) AS n RETURNING id
           )
           INSERT INTO questions (deck_id, position, text, choices, correct) SELECT d.id, p, 'q', '["a","b"]', 0 FROM d, generate_series(0, 9) AS p`,
          [from],
        );
      }
      await dataSource.query('ANALYZE decks; ANALYZE questions');
      const mine = await decks.createDeck('Indexed', [question('q')], hash('indexed'));
      const run = jest.spyOn(db, 'run');
      try {
        expect((await decks.listDecks([hash('indexed')], 50)).map((d) => d.id)).toEqual([BUILTIN_DECK_ID, mine.id]);
        const [, sql, params] = run.mock.calls[0];
        const [{ 'QUERY PLAN': plan }] = await dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, params as unknown[]);
        const scans: string[] = [];
        const indexes = new Set<string>();
        const walk = (node: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: unknown[] }) => {
          if (node['Relation Name']) scans.push(`${node['Node Type']} ${node['Relation Name']}`);
          if (node['Index Name']) indexes.add(node['Index Name']);
          for (const child of node.Plans ?? []) walk(child as typeof node);
        };
        walk(plan[0].Plan);
        // No table is read whole; the decks come by their two indexes, the count by the questions' own.
        expect(scans.filter((s) => s.startsWith('Seq Scan'))).toEqual([]);
        expect([...indexes].sort()).toEqual(['decks_builtin', 'decks_by_edit_token', 'questions_deck_id_position_key']);
      } finally {
        run.mockRestore();
      }
    });
  });

  it('serializes concurrent edits of one deck: two PUTs racing leave exactly one of them, whole', async () => {
    const long = Array.from({ length: 200 }, (_, i) => question(`long ${i}`, ['a', 'b', 'c'], i % 3));
    const short = [question('short 0'), question('short 1'), question('short 2')];
    for (let round = 0; round < 40; round++) {
      // Each round starts from a deck of another length, so either edit must remove or add rows.
      const made = await decks.createDeck(
        `Race ${round}`,
        Array.from({ length: 1 + (round % 7) * 20 }, (_, i) => question(`old ${i}`)),
        HASH,
      );
      const [first, second] = round % 2 === 0 ? [long, short] : [short, long];
      const done = await Promise.all([
        decks.replaceDeck(made.id, `first ${first.length}`, first),
        decks.replaceDeck(made.id, `second ${second.length}`, second),
      ]);
      expect(done).toEqual([true, true]);
      const after = await decks.loadDeck(made.id);
      const whole = [
        { name: `first ${first.length}`, questions: first },
        { name: `second ${second.length}`, questions: second },
      ];
      expect(whole).toContainEqual({ name: after!.name, questions: after!.questions });
      // Positions run from 0 with no gap and nothing past the deck's end.
      expect((await questionRows(made.id)).map((r) => r.position)).toEqual(after!.questions.map((_, i) => i));
    }
  });

  it('the database refuses a token on the built-in deck', async () => {
    await expect(dataSource.query(`UPDATE decks SET edit_token_hash = $2 WHERE id = $1`, [BUILTIN_DECK_ID, HASH])).rejects.toThrow(
      /decks_builtin_read_only/,
    );
  });
});

describe(DeckEditTokens1764856800000.name, () => {
  it('goes down to the schema before it and up again', async () => {
    const dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 1, migrations: MIGRATIONS }, new StatementMeter());
    const runner = dataSource.createQueryRunner();
    const columns = async () =>
      (
        await runner.query(
          `SELECT array_agg(column_name::text ORDER BY column_name) AS names FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'decks'`,
        )
      )[0].names;
    try {
      const migration = new DeckEditTokens1764856800000();
      expect(await columns()).toEqual(['builtin', 'created_at', 'deleted_at', 'edit_token_hash', 'id', 'name', 'updated_at']);
      await migration.down(runner);
      expect(await columns()).toEqual(['builtin', 'created_at', 'id', 'name']);
      await migration.up(runner);
      expect(await columns()).toEqual(['builtin', 'created_at', 'deleted_at', 'edit_token_hash', 'id', 'name', 'updated_at']);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  });
});
