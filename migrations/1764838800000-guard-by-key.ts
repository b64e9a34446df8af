import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The guard before every statement a room sends (migration 1764748800000) was a PL/pgSQL call,
 * `advance_rooms`, that joined `room_heads` with `unnest(ids, seqs, fences)`. The planner cannot
 * size arrays that are parameters, so it scanned the whole table and hashed it: about 40 pages
 * and 0.36 ms of PostgreSQL's time per statement with 1,000 rooms, growing with the rooms, the
 * largest cost per answer in the ladder (bench/reports/README.md). The guard is now one plain
 * statement that finds the rooms by primary key (ordered-statements.ts); PL/pgSQL runs only to
 * refuse, in `refuse_rooms_out_of_order`, with the same SQLSTATE (GR001) and DETAIL as before.
 *
 * `advance_rooms` stays, rewritten to look rooms up by key too, for instances of the build before
 * this one while a rolling restart replaces them; drop it once none can be running.
 */
export class GuardByKey1764838800000 implements MigrationInterface {
  name = 'GuardByKey1764838800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION refuse_rooms_out_of_order(ids uuid[], advanced uuid[]) RETURNS integer
      LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'room statements out of order' USING ERRCODE = 'GR001',
          DETAIL = (SELECT string_agg(i::text, ',') FROM unnest(ids) AS i WHERE NOT i = ANY(coalesce(advanced, '{}')));
      END $$;

      CREATE OR REPLACE FUNCTION advance_rooms(ids uuid[], seqs bigint[], fences bigint[]) RETURNS integer
      LANGUAGE plpgsql AS $$
      DECLARE
        out_of_order text[];
      BEGIN
        FOR i IN 1 .. coalesce(cardinality(ids), 0) LOOP
          UPDATE room_heads SET commit_seq = commit_seq + 1
          WHERE room_id = ids[i] AND commit_seq = seqs[i] AND lease_fence = fences[i];
          IF NOT FOUND THEN
            out_of_order := out_of_order || ids[i]::text;
          END IF;
        END LOOP;
        IF out_of_order IS NOT NULL THEN
          RAISE EXCEPTION 'room statements out of order' USING ERRCODE = 'GR001', DETAIL = array_to_string(out_of_order, ',');
        END IF;
        RETURN cardinality(ids);
      END $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP FUNCTION refuse_rooms_out_of_order(uuid[], uuid[]);
      CREATE OR REPLACE FUNCTION advance_rooms(ids uuid[], seqs bigint[], fences bigint[]) RETURNS integer
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
}
