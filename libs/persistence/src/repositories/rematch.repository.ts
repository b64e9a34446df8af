import { Database } from '../database';

export interface VoteRow {
  readonly playerId: string;
  readonly vote: boolean;
  readonly commandId: string | null;
}

export interface AcceptedRematch {
  readonly roomId: string;
  readonly releaseIds: readonly string[];
}

export class RematchRepository {
  constructor(private readonly db: Database) {}

  /**
   * Records the votes that waited together and, when they (or the clock) accepted the rematch,
   * the room's return to the lobby and the release of everyone else: one statement.
   */
  async recordVotes(gameId: string, votes: readonly VoteRow[], accepted?: AcceptedRematch): Promise<void> {
    await this.db.run(
      'RematchRepository.recordVotes',
      `WITH votes AS (
         INSERT INTO rematch_votes (game_id, player_id, vote, command_id)
         SELECT $1, v."playerId", v.vote, v."commandId"
         FROM jsonb_to_recordset($2::jsonb) AS v("playerId" uuid, vote boolean, "commandId" text)
         ON CONFLICT DO NOTHING
       ), released AS (
         UPDATE players SET left_at = now(), left_reason = 'released'
         WHERE $3::uuid IS NOT NULL AND room_id = $3 AND id = ANY($4::uuid[]) AND left_at IS NULL
       )
       UPDATE rooms SET phase = 'lobby', last_game_at = now()
       WHERE $3::uuid IS NOT NULL AND id = $3 AND closed_at IS NULL`,
      [gameId, JSON.stringify(votes), accepted?.roomId ?? null, accepted?.releaseIds ?? []],
    );
  }
}
