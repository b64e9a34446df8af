import { Database } from '../database';

export interface AnswerRow {
  readonly playerId: string;
  readonly question: number;
  readonly choice: number;
  readonly elapsedMs: number;
  readonly correct: boolean;
  readonly points: number;
  readonly commandId: string;
  /** When it arrived, epoch ms on the server's clock. */
  readonly at: number;
}

export interface GameAnswerRow extends AnswerRow {
  readonly gameId: string;
}

/** A question that closed before its deadline, and when. */
export interface QuestionCloseRow {
  readonly gameId: string;
  readonly index: number;
  readonly at: number;
}

export class AnswerRepository {
  constructor(private readonly db: Database) {}

  /**
   * Answers of any number of games in one statement (a room's batch, or several rooms' at once),
   * with the early closes they caused.
   */
  async recordAnswers(answers: readonly GameAnswerRow[], closes: readonly QuestionCloseRow[] = [], timeoutMs?: number): Promise<void> {
    await this.db.run(
      'AnswerRepository.recordAnswers',
      `WITH answered AS (
         INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id, answered_at_ms)
         SELECT a."gameId", a.question, a."playerId", a.choice, a."elapsedMs", a.correct, a.points, a."commandId", a.at
         FROM jsonb_to_recordset($1::jsonb)
              AS a("gameId" uuid, question int, "playerId" uuid, choice int, "elapsedMs" int, correct boolean, points int, "commandId" text, at float8)
         ON CONFLICT DO NOTHING
       )
       INSERT INTO question_closes (game_id, question_index, closed_at_ms)
       SELECT c."gameId", c.index, c.at FROM jsonb_to_recordset($2::jsonb) AS c("gameId" uuid, index int, at float8)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(answers), JSON.stringify(closes)],
      timeoutMs,
    );
  }

  /** A question closed early by something that is not an answer (a player's last socket closing). */
  async recordClose(close: QuestionCloseRow, timeoutMs?: number): Promise<void> {
    await this.db.run(
      'AnswerRepository.recordClose',
      `INSERT INTO question_closes (game_id, question_index, closed_at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [close.gameId, close.index, close.at],
      timeoutMs,
    );
  }
}
