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

export class AnswerRepository {
  constructor(private readonly db: Database) {}

  /** Every answer that waited in the mailbox together, in one insert. */
  async recordAnswers(gameId: string, answers: readonly AnswerRow[]): Promise<void> {
    await this.db.run(
      'AnswerRepository.recordAnswers',
      `INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id)
       SELECT $1, a.question, a."playerId", a.choice, a."elapsedMs", a.correct, a.points, a."commandId"
       FROM jsonb_to_recordset($2::jsonb)
            AS a(question int, "playerId" uuid, choice int, "elapsedMs" int, correct boolean, points int, "commandId" text)
       ON CONFLICT DO NOTHING`,
      [gameId, JSON.stringify(answers)],
    );
  }
}
