import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The heartbeat costs the same whatever the number of rooms (issue 31), and so does the
 * leaderboard whatever the number of finished games.
 *
 * An instance's leases live as long as its registry row is fresh, so its beat renews them all by
 * writing that row. Until now the beat also sent the id and fence of every room live on the
 * instance, to learn which of them another instance had taken: one index probe per room, each
 * beat (some 6,000 pages at 2,000 rooms). Now the beat reads only what changed, through indexes:
 *
 * - `room_heads.moved_from` and `moved_at`: the owner a lease last moved away from, and when.
 *   A trigger sets them whenever `lease_owner` changes from an owner (taken by another instance,
 *   handed over, released), so every way of moving a lease leaves the mark, an operator's UPDATE
 *   included. Taking a free lease keeps the mark: a handover whose answer its holder never heard
 *   is still read by the holder's next beat after the asker took the room. The beat reads the
 *   rooms moved away from its instance since its last beat through the partial index
 *   `room_heads_moved`. The trigger names `lease_owner`, so the guard that opens every unit (it
 *   updates `commit_seq` only) never fires it, and no command's write changes an indexed column:
 *   those updates stay HOT.
 * - `room_heads_wanted`: the rooms another instance asked for (`wanted_by`), by their holder, so
 *   that the holder's beat finds the rooms it must hand over without naming its rooms.
 * - `finished_games_by_game`: the leaderboard reads the newest finished games of one game, a
 *   bounded page, through it, instead of every finished game of that game.
 */
export class HeartbeatWithoutRoomLists1764874800000 implements MigrationInterface {
  name = 'HeartbeatWithoutRoomLists1764874800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE room_heads ADD COLUMN moved_from text, ADD COLUMN moved_at timestamptz;

      CREATE FUNCTION room_head_lease_moved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The clock of the change itself, not of its transaction's start: a beat reads marks by time.
        NEW.moved_from := OLD.lease_owner;
        NEW.moved_at := clock_timestamp();
        RETURN NEW;
      END $$;
      CREATE TRIGGER room_head_lease_moved BEFORE UPDATE OF lease_owner ON room_heads
        FOR EACH ROW WHEN (OLD.lease_owner IS NOT NULL AND OLD.lease_owner IS DISTINCT FROM NEW.lease_owner) EXECUTE FUNCTION room_head_lease_moved();

      CREATE INDEX room_heads_moved ON room_heads (moved_from, moved_at) WHERE moved_from IS NOT NULL;
      CREATE INDEX room_heads_wanted ON room_heads (lease_owner) WHERE wanted_by IS NOT NULL;
      CREATE INDEX finished_games_by_game ON finished_games (game, finished_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX finished_games_by_game;
      DROP INDEX room_heads_wanted;
      DROP INDEX room_heads_moved;
      DROP TRIGGER room_head_lease_moved ON room_heads;
      DROP FUNCTION room_head_lease_moved();
      ALTER TABLE room_heads DROP COLUMN moved_at, DROP COLUMN moved_from;
    `);
  }
}
