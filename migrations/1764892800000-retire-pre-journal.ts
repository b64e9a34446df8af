import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rooms from before the journal are retired (issue 33, item 5), and with them the games' old
 * tables, the old columns of `rooms` and the old guard function.
 *
 * Until now the server brought back a room opened before migration 1764849600000 from its game's
 * old tables, once, and its first statement snapshotted it. SQL cannot run a game's rules, so this
 * migration cannot snapshot a room that is still without one: it closes it instead. What an
 * operator sees afterwards: such a room's code answers as a closed room (410 `room_gone`, closed
 * for `upgrade`, then 404 once the results window has passed), the game it was playing is not
 * kept, and every game it finished stays, with its results, in `finished_games` (migration
 * 1764849600000 copied them there). A room that has a snapshot (every room opened through the
 * journal, and every old room the build before this one brought back) is not touched and plays on.
 *
 * Then the old storage goes:
 * - the nine old tables: trivia's `players`, `games`, `answers`, `question_closes`,
 *   `rematch_votes`, `game_results`, the card tables' `table_actions`, `table_rebuys`, and both
 *   games' `late_deadlines`;
 * - the 13 game-specific columns of `rooms` and their CHECK (`rooms_game_columns`). `deck_id`
 *   stays: a room that plays a built-in deck names it there (migration 1764882000000). A new
 *   CHECK says what is left: a room without `settings` is closed;
 * - `advance_rooms`, the guard kept for instances of the build before migration 1764838800000.
 */
export class RetirePreJournal1764892800000 implements MigrationInterface {
  name = 'RetirePreJournal1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE rooms r SET closed_at = now(), closed_reason = 'upgrade'
      WHERE r.closed_at IS NULL AND NOT EXISTS (SELECT 1 FROM room_snapshots s WHERE s.room_id = r.id);

      DROP TABLE game_results, rematch_votes, answers, question_closes, games, players, late_deadlines, table_actions, table_rebuys;

      ALTER TABLE rooms
        DROP CONSTRAINT rooms_game_columns,
        DROP COLUMN host_name, DROP COLUMN question_count, DROP COLUMN seconds_per_question, DROP COLUMN reveal_seconds,
        DROP COLUMN max_players, DROP COLUMN min_players, DROP COLUMN phase, DROP COLUMN games_played, DROP COLUMN last_game_at,
        DROP COLUMN player_id, DROP COLUMN table_settings, DROP COLUMN checkpoint, DROP COLUMN closed_command_id,
        ADD CONSTRAINT rooms_settings CHECK (settings IS NOT NULL OR closed_at IS NOT NULL);

      DROP FUNCTION advance_rooms(uuid[], bigint[], bigint[]);
    `);
  }

  /**
   * The schema before this migration, empty: the old tables and columns come back without their
   * rows (this migration dropped them), and the rooms it closed stay closed. The old CHECK is not
   * validated, since those rooms' old columns are gone.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION advance_rooms(ids uuid[], seqs bigint[], fences bigint[]) RETURNS integer
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

      ALTER TABLE rooms
        DROP CONSTRAINT rooms_settings,
        ADD COLUMN host_name text, ADD COLUMN question_count integer, ADD COLUMN seconds_per_question double precision,
        ADD COLUMN reveal_seconds double precision, ADD COLUMN max_players integer, ADD COLUMN min_players integer,
        ADD COLUMN phase text NOT NULL DEFAULT 'lobby', ADD COLUMN games_played integer NOT NULL DEFAULT 0,
        ADD COLUMN last_game_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN player_id text, ADD COLUMN table_settings jsonb, ADD COLUMN checkpoint jsonb, ADD COLUMN closed_command_id text;
      UPDATE rooms SET phase = 'closed' WHERE closed_at IS NOT NULL;
      ALTER TABLE rooms ADD CONSTRAINT rooms_game_columns CHECK (settings IS NOT NULL
          OR (player_id IS NOT NULL AND table_settings IS NOT NULL AND checkpoint IS NOT NULL)
          OR (host_name IS NOT NULL AND deck_id IS NOT NULL AND question_count IS NOT NULL AND seconds_per_question IS NOT NULL
              AND reveal_seconds IS NOT NULL AND max_players IS NOT NULL AND min_players IS NOT NULL)) NOT VALID;

      CREATE TABLE players (
        id               uuid PRIMARY KEY,
        room_id          uuid NOT NULL REFERENCES rooms(id),
        name             text NOT NULL,
        joined_at        timestamptz NOT NULL DEFAULT now(),
        left_at          timestamptz,
        left_reason      text,
        left_at_ms       double precision,
        left_command_id  text
      );
      CREATE INDEX players_seated ON players (room_id) WHERE left_at IS NULL;

      CREATE TABLE games (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id           uuid NOT NULL REFERENCES rooms(id),
        game_no           integer NOT NULL,
        question_ids      bigint[] NOT NULL,
        roster            uuid[] NOT NULL,
        started_at        timestamptz NOT NULL DEFAULT now(),
        finished_at       timestamptz,
        started_at_ms     double precision,
        start_command_id  text,
        UNIQUE (room_id, game_no)
      );
      CREATE INDEX games_room ON games (room_id, game_no DESC);

      CREATE TABLE answers (
        game_id         uuid NOT NULL REFERENCES games(id),
        question_index  integer NOT NULL,
        player_id       uuid NOT NULL REFERENCES players(id),
        choice          integer NOT NULL,
        elapsed_ms      integer NOT NULL,
        correct         boolean NOT NULL,
        points          integer NOT NULL,
        command_id      text NOT NULL,
        answered_at     timestamptz NOT NULL DEFAULT now(),
        answered_at_ms  double precision,
        PRIMARY KEY (game_id, question_index, player_id)
      );

      CREATE TABLE rematch_votes (
        game_id      uuid NOT NULL REFERENCES games(id),
        player_id    uuid NOT NULL REFERENCES players(id),
        vote         boolean NOT NULL,
        command_id   text,
        voted_at     timestamptz NOT NULL DEFAULT now(),
        voted_at_ms  double precision,
        PRIMARY KEY (game_id, player_id)
      );

      CREATE TABLE game_results (
        game_id     uuid NOT NULL REFERENCES games(id),
        player_id   uuid NOT NULL REFERENCES players(id),
        name        text NOT NULL,
        score       integer NOT NULL,
        correct     integer NOT NULL,
        rank        integer NOT NULL,
        elapsed_ms  integer NOT NULL,
        PRIMARY KEY (game_id, player_id)
      );

      CREATE TABLE question_closes (
        game_id         uuid NOT NULL REFERENCES games(id),
        question_index  integer NOT NULL,
        closed_at_ms    double precision NOT NULL,
        PRIMARY KEY (game_id, question_index)
      );

      CREATE TABLE late_deadlines (
        room_id      uuid NOT NULL REFERENCES rooms(id),
        due_ms       double precision NOT NULL,
        taken_at_ms  double precision NOT NULL,
        PRIMARY KEY (room_id, due_ms)
      );

      CREATE TABLE table_actions (
        room_id     uuid NOT NULL REFERENCES rooms(id),
        hand        integer NOT NULL,
        seq         integer NOT NULL,
        action      text NOT NULL,
        amount      integer,
        at_ms       double precision NOT NULL,
        command_id  text NOT NULL,
        PRIMARY KEY (room_id, hand, seq)
      );

      CREATE TABLE table_rebuys (
        room_id     uuid NOT NULL REFERENCES rooms(id),
        after_hand  integer NOT NULL,
        stack       integer NOT NULL,
        at_ms       double precision NOT NULL,
        command_id  text NOT NULL,
        PRIMARY KEY (room_id, command_id)
      );
    `);
  }
}
