import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a room needs to come back after its process died, written by the statements that commit
 * its commands: when each game's clock started, when each answer, vote and departure happened (on
 * the server's clock, as the rules used it), the questions that closed before their deadline, and
 * the command ids behind them, and the deadlines taken late after a restart. Also which game a
 * room plays and the seed of its random source.
 */
export class RoomRecovery1764576000000 implements MigrationInterface {
  name = 'RoomRecovery1764576000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms
        ADD COLUMN game text NOT NULL DEFAULT 'trivia',
        ADD COLUMN seed integer NOT NULL DEFAULT floor(random() * 2147483647)::integer;
      ALTER TABLE games
        ADD COLUMN started_at_ms double precision,
        ADD COLUMN start_command_id text;
      ALTER TABLE answers ADD COLUMN answered_at_ms double precision;
      ALTER TABLE rematch_votes ADD COLUMN voted_at_ms double precision;
      ALTER TABLE players
        ADD COLUMN left_at_ms double precision,
        ADD COLUMN left_command_id text;

      CREATE TABLE question_closes (
        game_id         uuid NOT NULL REFERENCES games(id),
        question_index  integer NOT NULL,
        closed_at_ms    double precision NOT NULL,
        PRIMARY KEY (game_id, question_index)
      );
      CREATE INDEX games_room ON games (room_id, game_no DESC);

      -- A deadline that passed while no process had the room, and when it was taken instead.
      CREATE TABLE late_deadlines (
        room_id      uuid NOT NULL REFERENCES rooms(id),
        due_ms       double precision NOT NULL,
        taken_at_ms  double precision NOT NULL,
        PRIMARY KEY (room_id, due_ms)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE late_deadlines;
      DROP INDEX games_room;
      DROP TABLE question_closes;
      ALTER TABLE players DROP COLUMN left_at_ms, DROP COLUMN left_command_id;
      ALTER TABLE rematch_votes DROP COLUMN voted_at_ms;
      ALTER TABLE answers DROP COLUMN answered_at_ms;
      ALTER TABLE games DROP COLUMN started_at_ms, DROP COLUMN start_command_id;
      ALTER TABLE rooms DROP COLUMN game, DROP COLUMN seed;
    `);
  }
}
