import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal records holds of a room's clocks (issue 31, PROTOCOL.md section 14): while a room's
 * writes fail its clocks stop, and the write that succeeds again records when they stopped and
 * for how long (`clock_held`), so that a replay moves them on at the same place.
 *
 * The new check allows more than the old one, so validating it finds nothing; it is added
 * NOT VALID and validated apart, which scans the journal without blocking its writes. Going back
 * fails while any hold is recorded: the code before this one could not replay it.
 */
export class JournalClockHolds1764878400000 implements MigrationInterface {
  name = 'JournalClockHolds1764878400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE room_journal DROP CONSTRAINT room_journal_kind,
        ADD CONSTRAINT room_journal_kind CHECK (kind IN ('command', 'proposal', 'signal', 'late_deadline', 'clock_held')) NOT VALID;
      ALTER TABLE room_journal VALIDATE CONSTRAINT room_journal_kind;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE room_journal DROP CONSTRAINT room_journal_kind,
        ADD CONSTRAINT room_journal_kind CHECK (kind IN ('command', 'proposal', 'signal', 'late_deadline'));
    `);
  }
}
