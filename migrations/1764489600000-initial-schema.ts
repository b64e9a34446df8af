import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1764489600000 implements MigrationInterface {
  name = 'InitialSchema1764489600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE decks (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name        text NOT NULL,
        builtin     boolean NOT NULL DEFAULT false,
        created_at  timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE questions (
        id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        deck_id   uuid NOT NULL REFERENCES decks(id) ON DELETE CASCADE,
        position  integer NOT NULL,
        text      text NOT NULL,
        choices   jsonb NOT NULL,
        correct   smallint NOT NULL,
        UNIQUE (deck_id, position),
        CHECK (jsonb_typeof(choices) = 'array' AND jsonb_array_length(choices) BETWEEN 2 AND 6),
        CHECK (correct >= 0 AND correct < jsonb_array_length(choices))
      );

      CREATE TABLE rooms (
        id                    uuid PRIMARY KEY,
        code                  char(6) NOT NULL,
        host_name             text NOT NULL,
        deck_id               uuid NOT NULL REFERENCES decks(id),
        question_count        integer NOT NULL,
        seconds_per_question  double precision NOT NULL,
        reveal_seconds        double precision NOT NULL,
        max_players           integer NOT NULL,
        min_players           integer NOT NULL,
        phase                 text NOT NULL DEFAULT 'lobby',
        games_played          integer NOT NULL DEFAULT 0,
        created_at            timestamptz NOT NULL DEFAULT now(),
        last_game_at          timestamptz NOT NULL DEFAULT now(),
        closed_at             timestamptz,
        closed_reason         text
      );
      -- A code names one open room; closed rooms free their code.
      CREATE UNIQUE INDEX rooms_open_code ON rooms (code) WHERE closed_at IS NULL;
      CREATE INDEX rooms_code ON rooms (code, created_at DESC);

      CREATE TABLE players (
        id           uuid PRIMARY KEY,
        room_id      uuid NOT NULL REFERENCES rooms(id),
        name         text NOT NULL,
        joined_at    timestamptz NOT NULL DEFAULT now(),
        left_at      timestamptz,
        left_reason  text
      );
      CREATE INDEX players_seated ON players (room_id) WHERE left_at IS NULL;

      CREATE TABLE games (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id       uuid NOT NULL REFERENCES rooms(id),
        game_no       integer NOT NULL,
        question_ids  bigint[] NOT NULL,
        roster        uuid[] NOT NULL,
        started_at    timestamptz NOT NULL DEFAULT now(),
        finished_at   timestamptz,
        UNIQUE (room_id, game_no)
      );

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
        PRIMARY KEY (game_id, question_index, player_id)
      );

      CREATE TABLE rematch_votes (
        game_id     uuid NOT NULL REFERENCES games(id),
        player_id   uuid NOT NULL REFERENCES players(id),
        vote        boolean NOT NULL,
        command_id  text,
        voted_at    timestamptz NOT NULL DEFAULT now(),
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
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE game_results, rematch_votes, answers, games, players, rooms, questions, decks`);
  }
}
