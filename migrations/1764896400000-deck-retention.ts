import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosts' decks are bounded too (issue 32): a deck that no room names and nobody edited for
 * DECKS_KEPT_DAYS is removed by the retention's pruning, with its questions.
 *
 * - A room opened with a host's deck now names it in `rooms.deck_id` beside its copy, so that
 *   "no room names it" can be read; the foreign key then keeps every named deck's row, so a deck in
 *   use by a room (live, or closed and still kept) is never removed.
 * - `rooms_by_host_deck`: that check, one index probe per deck. Only rooms that name a host's deck
 *   are in it; the rooms of a built-in deck, nearly all of them, name it with its hash and are not.
 * - `decks_by_edit_time`: the pruning's scan of hosts' decks, the least recently edited first.
 * - The rooms opened before this migration did not name the host's deck they copied, so nobody can
 *   tell whether a deck was in use: every host's deck's window starts now (`updated_at`).
 */
export class DeckRetention1764896400000 implements MigrationInterface {
  name = 'DeckRetention1764896400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX rooms_by_host_deck ON rooms (deck_id) WHERE deck_id IS NOT NULL AND deck_hash IS NULL;
      CREATE INDEX decks_by_edit_time ON decks (updated_at, id) WHERE NOT builtin;
      UPDATE decks SET updated_at = now() WHERE NOT builtin;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    // The build before ignores the names rooms now give their host's deck: they stay, harmless.
    await q.query(`
      DROP INDEX decks_by_edit_time;
      DROP INDEX rooms_by_host_deck;
    `);
  }
}
