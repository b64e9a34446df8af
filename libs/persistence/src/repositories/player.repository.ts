import { RoomPosition } from '@app/room-engine';
import { Database } from '../database';
import { QuestionCloseRow } from './answer.repository';

/** A seat that left or was kicked, and when (epoch ms on the server's clock). */
export interface DepartureRow {
  readonly playerId: string;
  readonly reason: string;
  readonly at: number;
  readonly commandId: string | null;
}

export class PlayerRepository {
  constructor(private readonly db: Database) {}

  async addPlayer(roomId: string, playerId: string, name: string, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'PlayerRepository.addPlayer',
        sql: `INSERT INTO players (id, room_id, name) VALUES ($1, $2, $3)`,
        params: [playerId, roomId, name],
        position,
      },
      timeoutMs,
    );
  }

  /** A seat goes, with the early close it caused if any: one statement. */
  async releasePlayer(roomId: string, departure: DepartureRow, close?: QuestionCloseRow, timeoutMs?: number, position?: RoomPosition): Promise<void> {
    await this.db.write(
      {
        name: 'PlayerRepository.releasePlayers',
        sql: `WITH released AS (
         UPDATE players SET left_at = now(), left_reason = $3, left_at_ms = $4, left_command_id = $5
         WHERE room_id = $1 AND id = $2 AND left_at IS NULL
       )
       INSERT INTO question_closes (game_id, question_index, closed_at_ms)
       SELECT $6::uuid, $7::int, $8::float8 WHERE $6::uuid IS NOT NULL
       ON CONFLICT DO NOTHING`,
        params: [roomId, departure.playerId, departure.reason, departure.at, departure.commandId, close?.gameId ?? null, close?.index ?? null, close?.at ?? null],
        position,
      },
      timeoutMs,
    );
  }
}
