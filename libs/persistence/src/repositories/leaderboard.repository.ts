import { Database } from '../database';

export interface LeaderboardEntry {
  readonly playerId: string;
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly totalScore: number;
  readonly bestScore: number;
}

/**
 * How many finished games the leaderboard reads: the newest games of one kind, through the index
 * `finished_games_by_game` (migration 1764874800000). So a request costs the same however many
 * games have finished, and an anonymous reader cannot make the server read them all.
 */
export const LEADERBOARD_GAMES = 1000;

/**
 * The best players over the newest finished games of one kind, from what each finished game
 * reported. A game that ranks its players reports a summary's `standings`
 * (`[{ playerId, name, score, rank }]`), and the leaderboard reads nothing else.
 */
export class LeaderboardRepository {
  constructor(private readonly db: Database) {}

  /** Over the newest LEADERBOARD_GAMES games, a seat's games in one room (rematches included) add up. */
  async topPlayers(game: string, limit: number): Promise<LeaderboardEntry[]> {
    return this.db.run<LeaderboardEntry>(
      'LeaderboardRepository.topPlayers',
      `SELECT s."playerId", min(s.name) AS name, count(*)::int AS games,
              (count(*) FILTER (WHERE s.rank = 1))::int AS wins,
              sum(s.score)::int AS "totalScore", max(s.score)::int AS "bestScore"
       FROM (SELECT summary FROM finished_games WHERE game = $1 ORDER BY finished_at DESC LIMIT ${LEADERBOARD_GAMES}) AS f,
            jsonb_to_recordset(coalesce(f.summary->'standings', '[]')) AS s("playerId" text, name text, score int, rank int)
       GROUP BY s."playerId"
       ORDER BY "totalScore" DESC, wins DESC, name
       LIMIT $2`,
      [game, limit],
    );
  }
}
