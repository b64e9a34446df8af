import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rooms move onto the journal (issue 21): a room opens with its game's settings as JSON and its
 * first snapshot, and everything after is the journal. The games' own tables are no longer
 * written; they stay readable until no room opened before this migration is left open (such a
 * room is loaded once from them, and its first statement snapshots it).
 *
 * - `rooms`: the game-specific columns become optional for a room opened with `settings`;
 *   `deck` is the copy of the deck a room plays from (kept once with the room, not in every
 *   snapshot), filled here for the trivia rooms still open, with their questions' own ids.
 * - `finished_games`: every game finished before the upgrade gets its summary here, in the shape
 *   the trivia module reports finished games in (standings, and each question with its answers),
 *   so the leaderboard and results read one table. Only trivia had finished games before.
 */
export class JournalRooms1764849600000 implements MigrationInterface {
  name = 'JournalRooms1764849600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE rooms
        ADD COLUMN deck jsonb,
        ALTER COLUMN host_name DROP NOT NULL,
        -- Every room opens naming its game now.
        ALTER COLUMN game DROP DEFAULT,
        DROP CONSTRAINT rooms_game_columns,
        -- A room is opened with its settings, or it is one of before the journal, with its game's
        -- own columns (read once, by the legacy loader in apps/game-server/src/legacy).
        ADD CONSTRAINT rooms_game_columns CHECK (settings IS NOT NULL
          OR (player_id IS NOT NULL AND table_settings IS NOT NULL AND checkpoint IS NOT NULL)
          OR (host_name IS NOT NULL AND deck_id IS NOT NULL AND question_count IS NOT NULL AND seconds_per_question IS NOT NULL
              AND reveal_seconds IS NOT NULL AND max_players IS NOT NULL AND min_players IS NOT NULL));

      UPDATE rooms r SET deck = (SELECT coalesce(jsonb_agg(jsonb_build_object('id', q.id, 'text', q.text, 'choices', q.choices, 'correct', q.correct) ORDER BY q.position), '[]')
                                 FROM questions q WHERE q.deck_id = r.deck_id)
      WHERE r.game = 'trivia' AND r.closed_at IS NULL;

      INSERT INTO finished_games (room_id, game, game_no, finished_at, summary)
      SELECT g.room_id, 'trivia', g.game_no, g.finished_at, jsonb_build_object(
        'code', trim(r.code), 'hostName', r.host_name, 'no', g.game_no,
        'startedAt', (extract(epoch FROM g.started_at) * 1000)::float8,
        'finishedAt', (extract(epoch FROM g.finished_at) * 1000)::float8,
        'standings', coalesce((SELECT jsonb_agg(jsonb_build_object('playerId', gr.player_id, 'name', gr.name, 'score', gr.score,
                                                                  'correct', gr.correct, 'rank', gr.rank) ORDER BY gr.rank, gr.name)
                               FROM game_results gr WHERE gr.game_id = g.id), '[]'),
        'questions', coalesce((SELECT jsonb_agg(jsonb_build_object(
                                  'index', o.ord - 1, 'text', qu.text, 'choices', qu.choices, 'correct', qu.correct,
                                  'answers', coalesce((SELECT jsonb_agg(jsonb_build_object('playerId', a.player_id, 'name', p.name, 'choice', a.choice,
                                                                                          'correct', a.correct, 'points', a.points, 'elapsedMs', a.elapsed_ms)
                                                                       ORDER BY a.answered_at, a.player_id)
                                                       FROM answers a JOIN players p ON p.id = a.player_id
                                                       WHERE a.game_id = g.id AND a.question_index = o.ord - 1), '[]')) ORDER BY o.ord)
                               FROM unnest(g.question_ids) WITH ORDINALITY AS o(qid, ord) JOIN questions qu ON qu.id = o.qid), '[]'))
      FROM games g JOIN rooms r ON r.id = g.room_id
      WHERE g.finished_at IS NOT NULL
      ON CONFLICT (room_id, game_no) DO NOTHING;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM finished_games f USING games g WHERE g.room_id = f.room_id AND g.game_no = f.game_no;
      DELETE FROM room_journal j USING rooms r WHERE r.id = j.room_id AND r.settings IS NOT NULL;
      DELETE FROM room_snapshots s USING rooms r WHERE r.id = s.room_id AND r.settings IS NOT NULL;
      DELETE FROM finished_games f USING rooms r WHERE r.id = f.room_id AND r.settings IS NOT NULL;
      DELETE FROM room_heads h USING rooms r WHERE r.id = h.room_id AND r.settings IS NOT NULL;
      DELETE FROM rooms WHERE settings IS NOT NULL;
      ALTER TABLE rooms
        DROP CONSTRAINT rooms_game_columns,
        ADD CONSTRAINT rooms_game_columns CHECK (CASE game
            WHEN 'cards' THEN player_id IS NOT NULL AND table_settings IS NOT NULL AND checkpoint IS NOT NULL
            ELSE deck_id IS NOT NULL AND question_count IS NOT NULL AND seconds_per_question IS NOT NULL
                 AND reveal_seconds IS NOT NULL AND max_players IS NOT NULL AND min_players IS NOT NULL
          END),
        ALTER COLUMN host_name SET NOT NULL,
        DROP COLUMN deck,
        ALTER COLUMN game SET DEFAULT 'trivia';
    `);
  }
}
