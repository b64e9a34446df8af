import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pipelined commits (docs/design.md, "Pipelined commits"). A room may send its next statement
 * before the previous one has answered; each statement is therefore preceded, in the same
 * implicit transaction, by `advance_rooms`, which moves the room's `commit_seq` from the number
 * the room expects to the next one or refuses the whole statement (SQLSTATE GR001, with the ids
 * of the rooms that were not where their process thought). So a room's statements apply in the
 * order they were decided or not at all: one that follows a failed statement is refused too, and
 * a process whose picture of the room is not the database's finds out at its next write.
 *
 * The same guard fences rooms between instances (PROTOCOL.md section 10): a room is owned by the
 * instance that holds its lease (`lease_owner` until `lease_expires`), taken in the statement that
 * loads the room, which also raises `lease_fence`. Every statement carries the fence its instance
 * was given, so a write from an instance that lost the room is refused.
 */
export class OrderedCommits1764748800000 implements MigrationInterface {
  name = 'OrderedCommits1764748800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms
        ADD COLUMN commit_seq bigint NOT NULL DEFAULT 0,
        ADD COLUMN lease_owner text,
        ADD COLUMN lease_fence bigint NOT NULL DEFAULT 0,
        ADD COLUMN lease_expires timestamptz;

      CREATE FUNCTION advance_rooms(ids uuid[], seqs bigint[], fences bigint[]) RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        out_of_order text;
      BEGIN
        WITH advanced AS (
          UPDATE rooms r SET commit_seq = r.commit_seq + 1
          FROM unnest(ids, seqs, fences) AS e(id, seq, fence)
          WHERE r.id = e.id AND r.commit_seq = e.seq AND r.lease_fence = e.fence
          RETURNING r.id
        )
        SELECT string_agg(i::text, ',') INTO out_of_order
        FROM unnest(ids) AS i WHERE i NOT IN (SELECT id FROM advanced);
        IF out_of_order IS NOT NULL THEN
          RAISE EXCEPTION 'room statements out of order' USING ERRCODE = 'GR001', DETAIL = out_of_order;
        END IF;
        RETURN cardinality(ids);
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION advance_rooms(uuid[], bigint[], bigint[]);
      ALTER TABLE rooms DROP COLUMN commit_seq, DROP COLUMN lease_owner, DROP COLUMN lease_fence, DROP COLUMN lease_expires;
    `);
  }
}
