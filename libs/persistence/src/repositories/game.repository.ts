import { RoomPosition } from '@app/room-engine';
import { Database } from '../database';
import { OPEN_ROOM } from './open-room';

export interface DrawnQuestion {
  readonly id: number;
  readonly text: string;
  readonly choices: string[];
  readonly correct: number;
}

export interface StartedGame {
  readonly gameId: string;
  readonly questions: DrawnQuestion[];
}

export interface ResultRow {
  readonly playerId: string;
  readonly name: string;
  readonly score: number;
  readonly correct: number;
  readonly rank: number;
  readonly elapsedMs: number;
}

export class GameRepository {
  constructor(private readonly db: Database) {}

  /**
   * Opens a game in one statement: draws its questions at random without repeats (preferring
   * questions this room has not played), records the game and moves the room out of the lobby.
   * Returns null when the room is closed.
   */
  async startGame(g: {
    roomId: string;
    gameNo: number;
    deckId: string;
    questionCount: number;
    roster: readonly string[];
    avoidQuestionIds: readonly number[];
    startedAt: number;
    commandId: string | null;
  }, timeoutMs?: number, position?: RoomPosition): Promise<StartedGame | null> {
    const [row] = await this.db.write<{ game_id: string; questions: DrawnQuestion[] }>(
      {
        name: 'GameRepository.startGame',
        sql: `WITH drawn AS (
         SELECT id, text, choices, correct, row_number() OVER (ORDER BY (id = ANY($5::bigint[])), random()) AS ord
         FROM questions WHERE deck_id = $3
         ORDER BY ord LIMIT $4
       ), game AS (
         INSERT INTO games (room_id, game_no, question_ids, roster, started_at_ms, start_command_id)
         SELECT $1, $2, array_agg(id ORDER BY ord), $6::uuid[], $7, $8 FROM drawn
         HAVING count(*) > 0 AND EXISTS (SELECT 1 FROM rooms WHERE id = $1 AND ${OPEN_ROOM})
         RETURNING id
       ), room AS (
         UPDATE rooms SET phase = 'question', games_played = $2, last_game_at = now()
         WHERE id = $1 AND ${OPEN_ROOM} AND EXISTS (SELECT 1 FROM game)
       )
       SELECT game.id AS game_id,
              (SELECT json_agg(json_build_object('id', d.id, 'text', d.text, 'choices', d.choices, 'correct', d.correct)
                               ORDER BY d.ord) FROM drawn d) AS questions
       FROM game`,
        params: [g.roomId, g.gameNo, g.deckId, g.questionCount, g.avoidQuestionIds, g.roster, g.startedAt, g.commandId],
        position,
      },
      timeoutMs,
    );
    if (!row) return null;
    return { gameId: row.game_id, questions: row.questions.map((q) => ({ ...q, id: Number(q.id) })) };
  }

  /** Records the results and finishes the game, in one statement. */
  async finishGame(roomId: string, gameId: string, results: readonly ResultRow[], timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'GameRepository.finishGame',
        sql: `WITH results AS (
         INSERT INTO game_results (game_id, player_id, name, score, correct, rank, elapsed_ms)
         SELECT $2, r."playerId", r.name, r.score, r.correct, r.rank, r."elapsedMs"
         FROM jsonb_to_recordset($3::jsonb) AS r("playerId" uuid, name text, score int, correct int, rank int, "elapsedMs" int)
         ON CONFLICT DO NOTHING
       ), game AS (
         UPDATE games SET finished_at = coalesce(finished_at, now()) WHERE id = $2
       )
       UPDATE rooms SET phase = 'finished', last_game_at = now() WHERE id = $1 AND ${OPEN_ROOM}`,
        params: [roomId, gameId, JSON.stringify(results)],
        position,
      },
      timeoutMs,
    );
  }
}
