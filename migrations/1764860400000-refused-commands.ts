import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operator console remembers (issue 24, item 4).
 *
 * - `refused_commands`: every refusal a room answered (the rules', the gate's, the socket's rate),
 *   written in batches off the answer path and deleted once older than REFUSALS_KEPT_DAYS. `id` is
 *   only the keyset's tie-breaker: refusals written in one batch share nothing else. No foreign
 *   key to `rooms`: a batch from many rooms must not wait on their rows' locks, and a room's rows
 *   go by age like everyone's.
 * - `refused_commands_by_room` pages one room's refusals newest first; `refused_commands_by_time`
 *   is the pruning's scan of the oldest.
 * - The finished games list needs no new index: newest first is `finished_games_by_time` read
 *   backwards (a date range is a range of it), and a code is `rooms_code` then
 *   `finished_games_room_game_no` by room.
 */
export class RefusedCommands1764860400000 implements MigrationInterface {
  name = 'RefusedCommands1764860400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refused_commands (
        id        bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT refused_commands_pkey PRIMARY KEY,
        room_id   uuid NOT NULL,
        at        timestamptz NOT NULL,
        -- player, host, spectator, or operator (the admin API)
        by_role   text NOT NULL,
        seat      text,
        name      text,
        type      text NOT NULL,
        code      text NOT NULL,
        status    smallint NOT NULL,
        message   text NOT NULL
      );
      CREATE INDEX refused_commands_by_room ON refused_commands (room_id, at DESC, id DESC);
      CREATE INDEX refused_commands_by_time ON refused_commands (at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refused_commands`);
  }
}
