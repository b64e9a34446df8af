import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card practice tables (PROTOCOL.md section 8). A table is a `rooms` row with game 'cards', so
 * that its code is unique among open rooms of both games; trivia's settings columns may be null
 * for it (a CHECK keeps them required for trivia). A table keeps its settings, the human's seat
 * id and the last hand's checkpoint on its row, and the human's actions and rebuys, each with
 * its time and command id, in their own tables: what `recordWrite` in libs/games/cards keeps.
 */
export class CardTables1764662400000 implements MigrationInterface {
  name = 'CardTables1764662400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms
        ALTER COLUMN deck_id DROP NOT NULL,
        ALTER COLUMN question_count DROP NOT NULL,
        ALTER COLUMN seconds_per_question DROP NOT NULL,
        ALTER COLUMN reveal_seconds DROP NOT NULL,
        ALTER COLUMN max_players DROP NOT NULL,
        ALTER COLUMN min_players DROP NOT NULL,
        ADD COLUMN player_id text,
        ADD COLUMN table_settings jsonb,
        ADD COLUMN checkpoint jsonb,
        ADD COLUMN closed_command_id text,
        ADD CONSTRAINT rooms_game_columns CHECK (
          CASE game
            WHEN 'cards' THEN player_id IS NOT NULL AND table_settings IS NOT NULL AND checkpoint IS NOT NULL
            ELSE deck_id IS NOT NULL AND question_count IS NOT NULL AND seconds_per_question IS NOT NULL
                 AND reveal_seconds IS NOT NULL AND max_players IS NOT NULL AND min_players IS NOT NULL
          END);

      -- The human's actions; a replay needs those after the checkpoint, command-id replay all.
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

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE table_rebuys, table_actions;
      DELETE FROM late_deadlines l USING rooms r WHERE r.id = l.room_id AND r.game = 'cards';
      DELETE FROM rooms WHERE game = 'cards';
      ALTER TABLE rooms
        DROP CONSTRAINT rooms_game_columns,
        DROP COLUMN player_id, DROP COLUMN table_settings, DROP COLUMN checkpoint, DROP COLUMN closed_command_id,
        ALTER COLUMN deck_id SET NOT NULL,
        ALTER COLUMN question_count SET NOT NULL,
        ALTER COLUMN seconds_per_question SET NOT NULL,
        ALTER COLUMN reveal_seconds SET NOT NULL,
        ALTER COLUMN max_players SET NOT NULL,
        ALTER COLUMN min_players SET NOT NULL;
    `);
  }
}
