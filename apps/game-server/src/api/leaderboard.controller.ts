import { gameChoice, LeaderboardQuery, readBody, readQuery } from '@app/protocol';
import { Controller, Get, Query } from '@nestjs/common';
import { LeaderboardRepository } from '@app/persistence';
import { DescribeLeaderboard } from './api-docs';
import { trivia } from '@app/games/trivia';
import { GAMES } from '../rooms/games';

@Controller('api/leaderboard')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardRepository) {}

  @Get()
  @DescribeLeaderboard()
  async top(@Query('limit') limit?: string, @Query('game') game?: string) {
    const query = readQuery(LeaderboardQuery, { limit, game });
    // Trivia's by default, as before games other than trivia finished games.
    const kinds = GAMES.map((g) => g.kind) as [string, ...string[]];
    const { game: kind } = readBody(gameChoice(kinds), { game: query.game ?? trivia.kind }, 'the query');
    return { players: await this.leaderboard.topPlayers(kind, query.limit) };
  }
}
