import { MigrationInterface, QueryRunner } from 'typeorm';

// Whether an open room shows a picture, as migration 1764903600000 first asked it (every open room's copy) or as now (its deck's rooms).
const SHOWN_ANYWHERE = (image: string) =>
  `EXISTS (SELECT 1 FROM rooms r WHERE r.closed_at IS NULL AND r.deck @> jsonb_build_array(jsonb_build_object('image', ${image}::text)))`;
const SHOWN_BY_DECK = (image: string, deck: string) =>
  `EXISTS (SELECT 1 FROM rooms r WHERE r.deck_id = ${deck} AND r.deck_hash IS NULL AND r.closed_at IS NULL
           AND r.deck @> jsonb_build_array(jsonb_build_object('image', ${image}::text)))`;

/** The two functions of migration 1764903600000, with `shown` as whether an open room shows the picture. */
function functions(shown: (image: string, deck: string) => string): string {
  return `
    CREATE OR REPLACE FUNCTION remove_deck_image(picture uuid, of_deck uuid) RETURNS text LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM decks WHERE id = of_deck AND deleted_at IS NULL AND edit_token_hash IS NOT NULL FOR NO KEY UPDATE;
      IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM deck_images WHERE id = picture AND deck_id = of_deck AND orphaned_at IS NULL) THEN
        RETURN 'none';
      END IF;
      IF EXISTS (SELECT 1 FROM questions q WHERE q.deck_id = of_deck AND q.image = picture::text) THEN
        RETURN 'in_use';
      END IF;
      IF ${shown('picture', 'of_deck')} THEN
        UPDATE deck_images SET orphaned_at = now() WHERE id = picture;
        RETURN 'kept_for_rooms';
      END IF;
      DELETE FROM deck_images WHERE id = picture;
      RETURN 'removed';
    END $$;

    CREATE OR REPLACE FUNCTION deck_images_follow_deck() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL) THEN
        RETURN NULL;
      END IF;
      DELETE FROM deck_images i WHERE i.deck_id = NEW.id AND NOT ${shown('i.id', 'NEW.id')};
      UPDATE deck_images SET orphaned_at = now() WHERE deck_id = NEW.id AND orphaned_at IS NULL;
      RETURN NULL;
    END $$;
  `;
}

/**
 * Whether an open room shows a deck's picture is asked of that deck's rooms only. A room opened
 * with a host's deck names it (`rooms.deck_id`, migration 1764896400000), and every room that can
 * show a picture was opened by a build that names it, so `rooms_by_host_deck` finds the few rooms
 * to look in; migration 1764903600000 read every open room's copy of its deck, up to 200
 * questions each, for each picture of a deck deleted. The retention's pruning of orphaned
 * pictures asks the same way (RetentionRepository.pruneOrphanedImages).
 */
export class DeckImagesByDeck1764907200000 implements MigrationInterface {
  name = 'DeckImagesByDeck1764907200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(functions(SHOWN_BY_DECK));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(functions((image) => SHOWN_ANYWHERE(image)));
  }
}
