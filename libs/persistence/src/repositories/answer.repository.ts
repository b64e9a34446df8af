import { RoomPosition } from '@app/room-engine';
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
   * A room's answers, with the early close they caused. On the room's ordered path, the answers of
   * every room sent in the same turn share one insert (still one round trip on each room's path).
   */
  async recordAnswers(
    answers: readonly GameAnswerRow[],
    closes: readonly QuestionCloseRow[] = [],
    timeoutMs?: number,
    position?: RoomPosition,
  ): Promise<void> {
    await this.db.write(
      {
        name: 'AnswerRepository.recordAnswers',
        sql: `WITH answered AS (
           INSERT INTO answers (game_id, question_index, player_id, choice, elapsed_ms, correct, points, command_id, answered_at_ms)
           SELECT a."gameId", a.question, a."playerId", a.choice, a."elapsedMs", a.correct, a.points, a."commandId", a.at
           FROM jsonb_to_recordset($1::jsonb)
                AS a("gameId" uuid, question int, "playerId" uuid, choice int, "elapsedMs" int, correct boolean, points int, "commandId" text, at float8)
           ON CONFLICT DO NOTHING
         )
         INSERT INTO question_closes (game_id, question_index, closed_at_ms)
         SELECT c."gameId", c.index, c.at FROM jsonb_to_recordset($2::jsonb) AS c("gameId" uuid, index int, at float8)
         ON CONFLICT DO NOTHING`,
        params: [JSON.stringify(answers), JSON.stringify(closes)],
        position,
        merge: (all) => [concatJsonArrays(all.map((p) => p[0] as string)), concatJsonArrays(all.map((p) => p[1] as string))],
      },
      timeoutMs,
    );
  }

  /** A question closed early by something that is not an answer (a player's last socket closing). */
  async recordClose(close: QuestionCloseRow, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'AnswerRepository.recordClose',
        sql: `INSERT INTO question_closes (game_id, question_index, closed_at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        params: [close.gameId, close.index, close.at],
        position,
      },
      timeoutMs,
    );
  }
}

/** Several JSON arrays as one, without parsing them again. */
function concatJsonArrays(arrays: readonly string[]): string {
  return `[${arrays.map((a) => a.slice(1, -1)).filter((inner) => inner.length > 0).join(',')}]`;
}
