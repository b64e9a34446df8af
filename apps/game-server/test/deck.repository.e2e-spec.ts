import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Database, openDataSource, StatementMeter } from '@app/persistence';
import { DeckRepository, NewQuestion } from '../src/decks/deck.repository';
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
    dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 2, migrations: MIGRATIONS }, meter);
    db = new Database(dataSource, meter, 10_000, 1);
    decks = new DeckRepository(db);
  });

  afterAll(async () => {
    await db?.close();
    await dataSource?.destroy();
  });

  const questionRows = async (deckId: string) =>
    (await dataSource.query(`SELECT id::int, position, text FROM questions WHERE deck_id = $1 ORDER BY position`, [deckId])) as { id: number; position: number; text: string }[];

  it('loadDeck gives the questions in the deck’s order with their right answers; null for an unknown id', async () => {
    const made = await decks.createDeck('Order', [question('first', ['a', 'b', 'c'], 2), question('second'), question('third', ['x', 'y'], 1)], HASH);
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
    expect(await decks.replaceDeck(made.id, 'Edited', [question('uno', ['si', 'no'], 1), question('dos', ['a', 'b', 'c', 'd', 'e', 'f'], 5)])).toBe(true);
    const after = await questionRows(made.id);
    expect(after).toEqual([
      { id: before[0].id, position: 0, text: 'uno' },
      { id: before[1].id, position: 1, text: 'dos' },
    ]);
    expect(await decks.loadDeck(made.id)).toMatchObject({ name: 'Edited', questions: [{ correct: 1 }, { choices: ['a', 'b', 'c', 'd', 'e', 'f'], correct: 5 }] });
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
    expect((await decks.listDecks()).map((d) => d.id)).toContain(made.id);
    expect(await decks.deleteDeck(made.id)).toBe(true);
    expect(await decks.deleteDeck(made.id)).toBe(false);
    expect(await decks.loadDeck(made.id)).toBeNull();
    expect(await decks.findDeck(made.id)).toBeNull();
    expect(await decks.replaceDeck(made.id, 'Back', [question('q')])).toBe(false);
    expect((await decks.listDecks()).map((d) => d.id)).not.toContain(made.id);
    expect(await questionRows(made.id)).toEqual([]);
    expect(await dataSource.query(`SELECT edit_token_hash, deleted_at IS NOT NULL AS deleted FROM decks WHERE id = $1`, [made.id])).toEqual([{ edit_token_hash: null, deleted: true }]);
  });

  it('the database refuses a token on the built-in deck', async () => {
    await expect(dataSource.query(`UPDATE decks SET edit_token_hash = $2 WHERE id = $1`, [BUILTIN_DECK_ID, HASH])).rejects.toThrow(/decks_builtin_read_only/);
  });
});

describe(DeckEditTokens1764856800000.name, () => {
  it('goes down to the schema before it and up again', async () => {
    const dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 1, migrations: MIGRATIONS }, new StatementMeter());
    const runner = dataSource.createQueryRunner();
    const columns = async () =>
      (await runner.query(`SELECT array_agg(column_name::text ORDER BY column_name) AS names FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'decks'`))[0].names;
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
