import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Generic room persistence (issue 21, docs/design.md "A game is one module"): what brings any
 * room back is the same for every game, so it needs no game's tables. Nothing reads or writes
 * these yet; the room actor moves onto them in a later step, and the per-game tables go then.
 *
 * - `room_journal`: the inputs a room accepted, in the order its rules took them. Replaying them
 *   through the same pure rules rebuilds the room, replies included, so each keeps its arrival on
 *   the room's clock and its command id. `seq` is the position of the room's statement that
 *   recorded it (the ADVANCE guard's), `idx` its place in that statement.
 * - `room_snapshots`: one state per room at a game's boundary, so that a load replays only the
 *   journal after `seq` instead of the room's whole life.
 * - `finished_games`: each finished game's summary, the game's own JSON, for the leaderboard,
 *   history and exports. Its id is random because it becomes the public results link. (Not
 *   `game_results`: trivia's per-player results still hold that name.)
 * - `rooms.settings`: what opening the room took, as JSON; nullable while the existing rooms keep
 *   their game-specific columns.
 */
export class RoomJournal1764846000000 implements MigrationInterface {
  name = 'RoomJournal1764846000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms ADD COLUMN settings jsonb;

      CREATE TABLE room_journal (
        room_id     uuid NOT NULL CONSTRAINT room_journal_room_id_fkey REFERENCES rooms(id),
        seq         bigint NOT NULL,
        idx         smallint NOT NULL,
        at_ms       double precision NOT NULL,
        kind        text NOT NULL CONSTRAINT room_journal_kind CHECK (kind IN ('command', 'proposal', 'signal', 'late_deadline')),
        actor       jsonb,
        command_id  text,
        body        jsonb NOT NULL,
        CONSTRAINT room_journal_pkey PRIMARY KEY (room_id, seq, idx)
      );

      CREATE TABLE room_snapshots (
        room_id  uuid NOT NULL CONSTRAINT room_snapshots_pkey PRIMARY KEY CONSTRAINT room_snapshots_room_id_fkey REFERENCES rooms(id),
        seq      bigint NOT NULL,
        at_ms    double precision NOT NULL,
        state    jsonb NOT NULL
      );

      CREATE TABLE finished_games (
        id           uuid NOT NULL DEFAULT gen_random_uuid() CONSTRAINT finished_games_pkey PRIMARY KEY,
        room_id      uuid NOT NULL CONSTRAINT finished_games_room_id_fkey REFERENCES rooms(id),
        game         text NOT NULL,
        game_no      integer NOT NULL,
        finished_at  timestamptz NOT NULL DEFAULT now(),
        summary      jsonb NOT NULL,
        CONSTRAINT finished_games_room_game_no UNIQUE (room_id, game_no)
      );
      -- The latest results (read backwards) and the leaderboard's scan of a period; one statement
      -- finishes many rooms' games at the same now(), so the id keeps their order stable.
      CREATE INDEX finished_games_by_time ON finished_games (finished_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE finished_games, room_snapshots, room_journal;
      ALTER TABLE rooms DROP COLUMN settings;
    `);
  }
}
