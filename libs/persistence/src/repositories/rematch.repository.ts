import { RoomPosition } from '@app/room-engine';
import { Database } from '../database';
import { DepartureRow } from './player.repository';
import { OPEN_ROOM } from './open-room';

export interface VoteRow {
  readonly playerId: string;
  readonly vote: boolean;
  readonly commandId: string | null;
  readonly at: number;
}

export interface AcceptedRematch {
  readonly roomId: string;
  readonly releaseIds: readonly string[];
}

export class RematchRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records the votes that waited together and, when they (or the clock) accepted the rematch,
   * the room's return to the lobby and the release of everyone else; a player whose leaving
   * decided it is released with it: one statement.
   */
  async recordVotes(
    gameId: string,
    votes: readonly VoteRow[],
    accepted?: AcceptedRematch,
    departure?: DepartureRow & { roomId: string },
    timeoutMs?: number,
    position?: RoomPosition,
  ): Promise<void> {
    await this.db.write(
      {
        name: 'RematchRepository.recordVotes',
        sql: `WITH votes AS (
         INSERT INTO rematch_votes (game_id, player_id, vote, command_id, voted_at_ms)
         SELECT $1, v."playerId", v.vote, v."commandId", v.at
         FROM jsonb_to_recordset($2::jsonb) AS v("playerId" uuid, vote boolean, "commandId" text, at float8)
         ON CONFLICT DO NOTHING
       ), departed AS (
         UPDATE players SET left_at = now(), left_reason = $6, left_at_ms = $7, left_command_id = $8
         WHERE $5::uuid IS NOT NULL AND room_id = $9 AND id = $5 AND left_at IS NULL
       ), released AS (
         UPDATE players SET left_at = now(), left_reason = 'released'
         WHERE $3::uuid IS NOT NULL AND room_id = $3 AND id = ANY($4::uuid[]) AND left_at IS NULL
       )
       UPDATE rooms SET phase = 'lobby', last_game_at = now()
       WHERE $3::uuid IS NOT NULL AND id = $3 AND ${OPEN_ROOM}`,
        params: [
        gameId,
        JSON.stringify(votes),
        accepted?.roomId ?? null,
        accepted?.releaseIds ?? [],
        departure?.playerId ?? null,
        departure?.reason ?? null,
        departure?.at ?? null,
        departure?.commandId ?? null,
        departure?.roomId ?? null,
      ],
        position,
      },
      timeoutMs,
    );
  }
}
