import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pictures on questions (issue 34): `deck_images` holds each image a host uploaded to a deck, as
 * the server re-encoded it (PROTOCOL.md section 13, "Images").
 *
 * - The id is the server's random UUID, the only name the image is served by; nobody can list a
 *   deck's images or guess one's id.
 * - `bytes` is stored EXTERNAL: the images are WebP already, so PostgreSQL does not try to compress them.
 * - An image goes with its deck. A deck's row that goes (the retention's pruning of decks nobody
 *   uses) takes its images by the foreign key's cascade. The deck API marks a deck deleted rather
 *   than deleting its row: the trigger
 *   `deck_images_follow_deck` then removes at once each image that no open room's deck copy
 *   shows, and marks the others orphaned. A room keeps the images of its copy while it lives;
 *   the retention's pruning removes an orphaned image once no open room shows it. A picture its
 *   host takes out of the deck goes the same way (`remove_deck_image`), unless a question of the
 *   deck still names it. This migration follows 1764900000000, which gave questions `image`.
 * - `add_deck_image` stores an image if its deck can still take one (PROTOCOL.md's per-deck
 *   caps). It locks the deck's row first, so that two uploads of one deck are counted one after
 *   the other, and a deletion under way is seen; as in `replace_deck`, each statement after the
 *   lock sees what the upload it waited for committed.
 */
export class DeckImages1764903600000 implements MigrationInterface {
  name = 'DeckImages1764903600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deck_images (
        id            uuid NOT NULL,
        deck_id       uuid NOT NULL,
        bytes         bytea NOT NULL,
        content_type  text NOT NULL,
        width         integer NOT NULL,
        height        integer NOT NULL,
        size          integer NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        orphaned_at   timestamptz,
        CONSTRAINT deck_images_pkey PRIMARY KEY (id),
        CONSTRAINT deck_images_deck_id_fkey FOREIGN KEY (deck_id) REFERENCES decks(id) ON DELETE CASCADE,
        CONSTRAINT deck_images_size CHECK (width > 0 AND height > 0 AND size = octet_length(bytes))
      );
      ALTER TABLE deck_images ALTER COLUMN bytes SET STORAGE EXTERNAL;
      CREATE INDEX deck_images_by_deck ON deck_images (deck_id);
      CREATE INDEX deck_images_orphaned ON deck_images (orphaned_at) WHERE orphaned_at IS NOT NULL;

      -- 'stored'; 'no_deck' when the deck is gone or nobody may edit it; 'full' when it holds
      -- max_images images already, or this one would take it past max_bytes.
      CREATE FUNCTION add_deck_image(image uuid, deck uuid, content bytea, type text, w integer, h integer, max_images integer, max_bytes bigint)
      RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        held integer;
        held_bytes bigint;
      BEGIN
        PERFORM 1 FROM decks WHERE id = deck AND deleted_at IS NULL AND edit_token_hash IS NOT NULL FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RETURN 'no_deck';
        END IF;
        -- An orphaned picture (removed from the deck, kept while an open room shows it) is no longer the deck's.
        SELECT count(*), coalesce(sum(size), 0) INTO held, held_bytes FROM deck_images WHERE deck_id = deck AND orphaned_at IS NULL;
        IF held >= max_images OR held_bytes + octet_length(content) > max_bytes THEN
          RETURN 'full';
        END IF;
        INSERT INTO deck_images (id, deck_id, bytes, content_type, width, height, size)
        VALUES (image, deck, content, type, w, h, octet_length(content));
        RETURN 'stored';
      END $$;

      -- A picture its host takes out of a deck: 'removed'; 'kept_for_rooms' when an open room's copy
      -- shows it (orphaned: served until no open room does, no longer the deck's); 'in_use' when a
      -- question of the deck names it; 'none' when the deck (editable) has no such picture. The
      -- deck's row is locked first, as replace_deck locks it, so that an edit naming the picture
      -- is either seen here or made after it is gone.
      CREATE FUNCTION remove_deck_image(picture uuid, of_deck uuid) RETURNS text LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM decks WHERE id = of_deck AND deleted_at IS NULL AND edit_token_hash IS NOT NULL FOR NO KEY UPDATE;
        IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM deck_images WHERE id = picture AND deck_id = of_deck AND orphaned_at IS NULL) THEN
          RETURN 'none';
        END IF;
        IF EXISTS (SELECT 1 FROM questions q WHERE q.deck_id = of_deck AND q.image = picture::text) THEN
          RETURN 'in_use';
        END IF;
        IF EXISTS (SELECT 1 FROM rooms r WHERE r.closed_at IS NULL AND r.deck @> jsonb_build_array(jsonb_build_object('image', picture::text))) THEN
          UPDATE deck_images SET orphaned_at = now() WHERE id = picture;
          RETURN 'kept_for_rooms';
        END IF;
        DELETE FROM deck_images WHERE id = picture;
        RETURN 'removed';
      END $$;

      -- A deck marked deleted: the images no open room's copy shows go now, the others wait for their rooms.
      -- The test is here rather than in the trigger's WHEN (and UPDATE OF): a trigger that names
      -- deleted_at would stop an older migration's down from dropping that column.
      CREATE FUNCTION deck_images_follow_deck() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) THEN
          RETURN NULL;
        END IF;
        DELETE FROM deck_images i
        WHERE i.deck_id = NEW.id
          AND NOT EXISTS (SELECT 1 FROM rooms r WHERE r.closed_at IS NULL AND r.deck @> jsonb_build_array(jsonb_build_object('image', i.id::text)));
        UPDATE deck_images SET orphaned_at = now() WHERE deck_id = NEW.id AND orphaned_at IS NULL;
        RETURN NULL;
      END $$;
      CREATE TRIGGER deck_images_follow_deck AFTER UPDATE ON decks FOR EACH ROW EXECUTE FUNCTION deck_images_follow_deck();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER deck_images_follow_deck ON decks;
      DROP FUNCTION deck_images_follow_deck();
      DROP FUNCTION remove_deck_image(uuid, uuid);
      DROP FUNCTION add_deck_image(uuid, uuid, bytea, text, integer, integer, integer, bigint);
      DROP TABLE deck_images;
    `);
  }
}
