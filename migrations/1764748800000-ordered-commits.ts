import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pipelined commits (docs/design.md, "Pipelined commits"). A room may send its next statement
 * before the previous one has answered; each statement is therefore preceded, in the same
 * implicit transaction, by `advance_rooms`, which moves the room's `commit_seq` (in `room_heads`) from the number
 * the room expects to the next one or refuses the whole statement (SQLSTATE GR001, with the ids
 * of the rooms that were not where their process thought). So a room's statements apply in the
 * order they were decided or not at all: one that follows a failed statement is refused too, and
 * a process whose picture of the room is not the database's finds out at its next write.
 *
 * The same guard fences rooms between instances (PROTOCOL.md section 10): a room is owned by the
 * instance that holds its lease (`room_heads.lease_owner`, alive while that instance's registry row is), taken in the statement that
 * loads the room, which also raises `lease_fence`. Every statement carries the fence its instance
 * was given, so a write from an instance that lost the room is refused.
 */
export class OrderedCommits1764748800000 implements MigrationInterface {
  name = 'OrderedCommits1764748800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- A narrow row per room, apart from the wide rooms row: it is written by every statement of
      -- the room, and kept small (and with room on its page) so that each write is a cheap HOT update.
      CREATE TABLE room_heads (
        room_id       uuid PRIMARY KEY REFERENCES rooms(id),
        commit_seq    bigint NOT NULL DEFAULT 0,
        lease_owner   text,
        lease_fence   bigint NOT NULL DEFAULT 0
      ) WITH (fillfactor = 50);
      INSERT INTO room_heads (room_id) SELECT id FROM rooms;

      CREATE FUNCTION room_head_for_new_room() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO room_heads (room_id) VALUES (NEW.id);
        RETURN NEW;
      END $$;
      CREATE TRIGGER room_head_for_new_room AFTER INSERT ON rooms FOR EACH ROW EXECUTE FUNCTION room_head_for_new_room();

      CREATE FUNCTION advance_rooms(ids uuid[], seqs bigint[], fences bigint[]) RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        out_of_order text;
      BEGIN
        WITH advanced AS (
          UPDATE room_heads h SET commit_seq = h.commit_seq + 1
          FROM unnest(ids, seqs, fences) AS e(id, seq, fence)
          WHERE h.room_id = e.id AND h.commit_seq = e.seq AND h.lease_fence = e.fence
          RETURNING h.room_id
        )
        SELECT string_agg(i::text, ',') INTO out_of_order
        FROM unnest(ids) AS i WHERE i NOT IN (SELECT room_id FROM advanced);
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
      DROP TRIGGER room_head_for_new_room ON rooms;
      DROP FUNCTION room_head_for_new_room();
      DROP TABLE room_heads;
    `);
  }
}
