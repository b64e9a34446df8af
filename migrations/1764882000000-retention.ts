import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storage that does not grow with time (issue 32, item 2).
 *
 * - `rooms.deck_hash`: a room opened with a built-in deck names it (`deck_id`) and the SHA-256 of
 *   its content (base64url) instead of keeping a copy in `rooms.deck`; the server checks the hash
 *   when it brings the room back, so a replay plays the very deck the room opened with. A room
 *   opened with a host's deck keeps its copy (the host may edit or delete the deck), and so do
 *   the rooms opened before this migration.
 * - `rooms.pruned_at`: when a closed room's journal, snapshot and deck copy were removed, after
 *   the results window. A room whose snapshot is gone is never brought back.
 * - `rooms_closed_unpruned` and `rooms_pruned`: the pruning's scans of the oldest closed rooms
 *   still to prune, and of the pruned rooms whose row may go, each a range of its own index, so
 *   that neither walks rooms the other has to do with (nor the open rooms).
 */
export class Retention1764882000000 implements MigrationInterface {
  name = 'Retention1764882000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms
        ADD COLUMN deck_hash text,
        ADD COLUMN pruned_at timestamptz,
        -- A reference names its deck and holds no copy.
        ADD CONSTRAINT rooms_deck_reference CHECK (deck_hash IS NULL OR (deck_id IS NOT NULL AND deck IS NULL));
      CREATE INDEX rooms_closed_unpruned ON rooms (closed_at) WHERE closed_at IS NOT NULL AND pruned_at IS NULL;
      CREATE INDEX rooms_pruned ON rooms (closed_at) WHERE pruned_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    // A room that references its deck gets its copy back, so the build before this one can play it.
    await q.query(`
      UPDATE rooms r SET deck = (SELECT coalesce(jsonb_agg(jsonb_build_object('text', q.text, 'choices', q.choices, 'correct', q.correct) ORDER BY q.position), '[]')
                                 FROM questions q WHERE q.deck_id = r.deck_id)
      WHERE r.deck_hash IS NOT NULL;
      DROP INDEX rooms_pruned;
      DROP INDEX rooms_closed_unpruned;
      ALTER TABLE rooms DROP CONSTRAINT rooms_deck_reference, DROP COLUMN pruned_at, DROP COLUMN deck_hash;
    `);
  }
}
