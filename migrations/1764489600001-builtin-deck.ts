import { MigrationInterface, QueryRunner } from 'typeorm';
import { GENERAL_KNOWLEDGE_DECK } from './data/general-knowledge.deck';

/** The id every room without a `deckId` plays. */
export const BUILTIN_DECK_ID = '00000000-0000-4000-8000-000000000001';

export class BuiltinDeck1764489600001 implements MigrationInterface {
  name = 'BuiltinDeck1764489600001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`INSERT INTO decks (id, name, builtin) VALUES ($1, 'General knowledge', true)`, [BUILTIN_DECK_ID]);
    await q.query(
      `INSERT INTO questions (deck_id, position, text, choices, correct)
       SELECT $1, t.position, t.text, t.choices, t.correct
       FROM jsonb_to_recordset($2::jsonb) AS t(position integer, text text, choices jsonb, correct smallint)`,
      [BUILTIN_DECK_ID, JSON.stringify(GENERAL_KNOWLEDGE_DECK.map((question, position) => ({ position, ...question })))],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM decks WHERE id = $1`, [BUILTIN_DECK_ID]);
  }
}
