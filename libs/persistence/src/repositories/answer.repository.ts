import { Database } from '../database';

export interface AnswerRow {
  readonly playerId: string;
  readonly question: number;
  readonly choice: number;
  readonly elapsedMs: number;
  readonly correct: boolean;
  readonly points: number;
  readonly commandId: string;
}

export interface GameAnswerRow extends AnswerRow {
  readonly gameId: string;
}

export class AnswerRepository {
  constructor(private readonly db: Database) {}

  /** Answers of any number of games in one insert: a room's batch, or several rooms' at once. */
  async recordAnswers(answers: readonly GameAnswerRow[]): Promise<void> {
    await this.db.run(
      'AnswerRepository.recordAnswers',
      `INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id)
       SELECT a."gameId", a.question, a."playerId", a.choice, a."elapsedMs", a.correct, a.points, a."commandId"
       FROM jsonb_to_recordset($1::jsonb)
            AS a("gameId" uuid, question int, "playerId" uuid, choice int, "elapsedMs" int, correct boolean, points int, "commandId" text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(answers)],
    );
  }
}
