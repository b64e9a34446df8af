import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decks that hosts edit (issue 24, PROTOCOL.md section 12): no accounts, so the right to edit a
 * deck is its edit token, shown once when the deck is made and kept here only as its SHA-256.
 * A deck made before this migration has no token and stays as it is; the built-in deck never
 * gets one. A deleted deck stays as a row (rooms.deck_id references it) with its questions gone.
 */
export class DeckEditTokens1764856800000 implements MigrationInterface {
  name = 'DeckEditTokens1764856800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE decks
        ADD COLUMN edit_token_hash bytea,
        ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN deleted_at timestamptz,
        ADD CONSTRAINT decks_builtin_read_only CHECK (NOT builtin OR edit_token_hash IS NULL);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE decks
        DROP CONSTRAINT decks_builtin_read_only,
        DROP COLUMN deleted_at,
        DROP COLUMN updated_at,
        DROP COLUMN edit_token_hash;
    `);
  }
}
