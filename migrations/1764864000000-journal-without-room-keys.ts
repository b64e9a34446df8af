import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal and snapshot rows no longer check their room's row (issue 22: CPU per answer).
 *
 * Every journal row's foreign key ran `SELECT 1 FROM rooms ... FOR KEY SHARE` for each row an
 * append inserted (about 3 per statement under load), and the lock it takes writes the room's row
 * and a WAL record in every answer's transaction. What the key proved is already proven: every
 * unit opens with the guard (ADVANCE in ordered-statements.ts), which updates the room's
 * `room_heads` row, whose own key references `rooms`, in the same transaction, and refuses the
 * whole unit when the room has no head. Rooms are never deleted, so no row can be orphaned later.
 * `finished_games` keeps its key: one row per game, and operators look up rooms from it.
 */
export class JournalWithoutRoomKeys1764864000000 implements MigrationInterface {
  name = 'JournalWithoutRoomKeys1764864000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE room_journal DROP CONSTRAINT room_journal_room_id_fkey;
      ALTER TABLE room_snapshots DROP CONSTRAINT room_snapshots_room_id_fkey;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE room_journal ADD CONSTRAINT room_journal_room_id_fkey FOREIGN KEY (room_id) REFERENCES rooms(id);
      ALTER TABLE room_snapshots ADD CONSTRAINT room_snapshots_room_id_fkey FOREIGN KEY (room_id) REFERENCES rooms(id);
    `);
  }
}
