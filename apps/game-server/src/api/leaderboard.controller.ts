import { gameChoice, LeaderboardQuery, readBody, readQuery } from '@app/protocol';
import { Controller, Get, Query } from '@nestjs/common';
import { LeaderboardRepository } from '@app/persistence';
import { DescribeLeaderboard } from './api-docs';
import { DEFAULT_GAME, GAMES } from '../rooms/games';

@Controller('api/leaderboard')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardRepository) {}

  @Get()
  @DescribeLeaderboard()
  async top(@Query('limit') limit?: string, @Query('game') game?: string) {
    const query = readQuery(LeaderboardQuery, { limit, game });
    // The default game's, as before other games finished games.
    const kinds = GAMES.map((g) => g.kind) as [string, ...string[]];
    const { game: kind } = readBody(gameChoice(kinds), { game: query.game ?? DEFAULT_GAME.game.kind }, 'the query');
    return { players: await this.leaderboard.topPlayers(kind, query.limit) };
  }
}
