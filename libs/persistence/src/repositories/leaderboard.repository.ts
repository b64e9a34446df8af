import { Database } from '../database';

export interface LeaderboardEntry {
  readonly playerId: string;
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly totalScore: number;
  readonly bestScore: number;
}

export class LeaderboardRepository {
  constructor(private readonly db: Database) {}

  /** The best players over finished games: a seat's games in one room (rematches included) add up. */
  async topPlayers(limit: number): Promise<LeaderboardEntry[]> {
    return this.db.run<LeaderboardEntry>(
      'LeaderboardRepository.topPlayers',
      `SELECT gr.player_id AS "playerId", min(gr.name) AS name, count(*)::int AS games,
              (count(*) FILTER (WHERE gr.rank = 1))::int AS wins,
              sum(gr.score)::int AS "totalScore", max(gr.score)::int AS "bestScore"
       FROM game_results gr
       GROUP BY gr.player_id
       ORDER BY "totalScore" DESC, wins DESC, name
       LIMIT $1`,
      [limit],
    );
  }
}
