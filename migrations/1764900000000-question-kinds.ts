import { MigrationInterface, QueryRunner } from 'typeorm';

// The same insert as replace_deck's of migration 1764889260000, with the columns of question kinds.
const REPLACE_DECK = (columns: 'kinds' | 'before') => `
  CREATE OR REPLACE FUNCTION replace_deck(deck uuid, new_name text, new_questions jsonb) RETURNS uuid
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
    ${
      columns === 'kinds'
        ? `INSERT INTO questions (deck_id, position, kind, text, choices, correct, right_choices, accepted, seconds, image)
    SELECT deck, i.ord - 1, coalesce(i.item->>'kind', 'choice'), i.item->>'text', i.item->'choices',
           CASE WHEN jsonb_typeof(i.item->'correct') = 'number' THEN (i.item->>'correct')::smallint END,
           CASE WHEN jsonb_typeof(i.item->'correct') = 'array' THEN i.item->'correct' END,
           i.item->'accepted', (i.item->>'seconds')::smallint, i.item->>'image'
    FROM jsonb_array_elements(new_questions) WITH ORDINALITY AS i(item, ord)
    ON CONFLICT (deck_id, position) DO UPDATE SET kind = EXCLUDED.kind, text = EXCLUDED.text, choices = EXCLUDED.choices,
      correct = EXCLUDED.correct, right_choices = EXCLUDED.right_choices, accepted = EXCLUDED.accepted,
      seconds = EXCLUDED.seconds, image = EXCLUDED.image;`
        : `INSERT INTO questions (deck_id, position, text, choices, correct)
    SELECT deck, i.ord - 1, i.item->>'text', i.item->'choices', (i.item->>'correct')::smallint
    FROM jsonb_array_elements(new_questions) WITH ORDINALITY AS i(item, ord)
    ON CONFLICT (deck_id, position) DO UPDATE SET text = EXCLUDED.text, choices = EXCLUDED.choices, correct = EXCLUDED.correct;`
    }
    RETURN edited;
  END $$;`;

/**
 * Question kinds (issue 34, PROTOCOL.md section 13). A question has a `kind` (`choice` for every
 * row written before), and may have its own time (`seconds`) and a picture (`image`, an image id).
 * A `multi` question's right choices are a list (`right_choices`), a `text` question has accepted
 * answers and no choices, a poll has no right answer: `correct` is set for `choice` and
 * `truefalse` only. The checks say so per kind, so that no row can hold a question a room could
 * not play. The table's two checks from the first schema (unnamed, so found by their kind) give
 * way to these.
 */
export class QuestionKinds1764900000000 implements MigrationInterface {
  name = 'QuestionKinds1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE questions
        ADD COLUMN kind text NOT NULL DEFAULT 'choice',
        ADD COLUMN right_choices jsonb,
        ADD COLUMN accepted jsonb,
        ADD COLUMN seconds smallint,
        ADD COLUMN image text,
        ALTER COLUMN choices DROP NOT NULL,
        ALTER COLUMN correct DROP NOT NULL;

      DO $$
      DECLARE
        c record;
      BEGIN
        FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = 'questions'::regclass AND contype = 'c' LOOP
          EXECUTE format('ALTER TABLE questions DROP CONSTRAINT %I', c.conname);
        END LOOP;
      END $$;

      ALTER TABLE questions
        ADD CONSTRAINT questions_kind CHECK (kind IN ('choice', 'truefalse', 'multi', 'poll', 'text')),
        ADD CONSTRAINT questions_choices CHECK (coalesce(
          CASE WHEN kind = 'text' THEN choices IS NULL
               ELSE jsonb_typeof(choices) = 'array' AND jsonb_array_length(choices) BETWEEN 2 AND 6 END, false)),
        ADD CONSTRAINT questions_correct CHECK (coalesce(
          CASE kind
            WHEN 'choice' THEN correct >= 0 AND correct < jsonb_array_length(choices) AND right_choices IS NULL
            WHEN 'truefalse' THEN correct IN (0, 1) AND right_choices IS NULL
            WHEN 'multi' THEN correct IS NULL AND jsonb_typeof(right_choices) = 'array' AND jsonb_array_length(right_choices) >= 1
            ELSE correct IS NULL AND right_choices IS NULL END, false)),
        ADD CONSTRAINT questions_accepted CHECK (coalesce(
          CASE WHEN kind = 'text' THEN jsonb_typeof(accepted) = 'array' AND jsonb_array_length(accepted) BETWEEN 1 AND 10
               ELSE accepted IS NULL END, false)),
        ADD CONSTRAINT questions_seconds CHECK (seconds IS NULL OR seconds BETWEEN 5 AND 240);
      ${REPLACE_DECK('kinds')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    // The build before kinds plays choice questions only: the others go.
    await q.query(`
      ${REPLACE_DECK('before')}
      DELETE FROM questions WHERE kind <> 'choice';
      ALTER TABLE questions
        DROP CONSTRAINT questions_kind, DROP CONSTRAINT questions_choices, DROP CONSTRAINT questions_correct,
        DROP CONSTRAINT questions_accepted, DROP CONSTRAINT questions_seconds,
        DROP COLUMN kind, DROP COLUMN right_choices, DROP COLUMN accepted, DROP COLUMN seconds, DROP COLUMN image,
        ALTER COLUMN choices SET NOT NULL,
        ALTER COLUMN correct SET NOT NULL,
        ADD CHECK (jsonb_typeof(choices) = 'array' AND jsonb_array_length(choices) BETWEEN 2 AND 6),
        ADD CHECK (correct >= 0 AND correct < jsonb_array_length(choices));
    `);
  }
}
