import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Decks are the host's (issue 32). `GET /api/decks` lists the built-in decks and the decks whose
 * edit tokens the caller presents, paged, each with its number of questions: the two indexes find
 * those decks without reading every host's, and a deck's questions are counted through
 * `questions (deck_id, position)`, never aggregated over the whole table.
 *
 * Concurrent edits of one deck are serialized. One statement cannot do it: its questions' upsert
 * and delete read the snapshot the statement started with, so an edit that waited for the deck's
 * row behind another missed the rows the other had just added (two PUTs, of 200 questions and of
 * 3, could leave rows past the shorter deck's end). In these functions the deck's row is locked
 * first, and each statement after it takes a snapshot of its own (a PL/pgSQL function is
 * VOLATILE), so it sees whatever the edit it waited for committed: the last complete edit wins
 * whole. Still one round trip for the server.
 */
export class DecksByToken1764889260000 implements MigrationInterface {
  name = 'DecksByToken1764889260000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX decks_by_edit_token ON decks (edit_token_hash) WHERE edit_token_hash IS NOT NULL;
      CREATE INDEX decks_builtin ON decks (created_at, id) WHERE builtin AND deleted_at IS NULL;

      -- The deck's id when it was replaced; null when there is no such editable deck.
      CREATE FUNCTION replace_deck(deck uuid, new_name text, new_questions jsonb) RETURNS uuid
      LANGUAGE plpgsql AS $$
      DECLARE
        edited uuid;
      BEGIN
        -- The row first: an edit of the same deck under way holds it, and this one waits here.
        UPDATE decks SET name = new_name, updated_at = now()
        WHERE id = deck AND deleted_at IS NULL AND edit_token_hash IS NOT NULL
        RETURNING id INTO edited;
        IF edited IS NULL THEN
          RETURN NULL;
        END IF;
        -- Rewritten in place by position, so the rows a live game drew keep their ids; past the new end they go.
        DELETE FROM questions q WHERE q.deck_id = deck AND q.position >= jsonb_array_length(new_questions);
        INSERT INTO questions (deck_id, position, text, choices, correct)
        SELECT deck, i.ord - 1, i.item->>'text', i.item->'choices', (i.item->>'correct')::smallint
        FROM jsonb_array_elements(new_questions) WITH ORDINALITY AS i(item, ord)
        ON CONFLICT (deck_id, position) DO UPDATE SET text = EXCLUDED.text, choices = EXCLUDED.choices, correct = EXCLUDED.correct;
        RETURN edited;
      END $$;

      -- The deck's id when it was deleted (its row stays, marked, for the rooms that name it); null when there is no such editable deck.
      CREATE FUNCTION delete_deck(deck uuid) RETURNS uuid
      LANGUAGE plpgsql AS $$
      DECLARE
        deleted uuid;
      BEGIN
        UPDATE decks SET deleted_at = now(), updated_at = now(), edit_token_hash = NULL
        WHERE id = deck AND deleted_at IS NULL AND edit_token_hash IS NOT NULL
        RETURNING id INTO deleted;
        IF deleted IS NULL THEN
          RETURN NULL;
        END IF;
        DELETE FROM questions q WHERE q.deck_id = deck;
        RETURN deleted;
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION delete_deck(uuid);
      DROP FUNCTION replace_deck(uuid, text, jsonb);
      DROP INDEX decks_builtin;
      DROP INDEX decks_by_edit_token;
    `);
  }
}
