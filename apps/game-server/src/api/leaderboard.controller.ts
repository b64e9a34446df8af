import { Controller, Get, Query } from '@nestjs/common';
import { LeaderboardRepository } from '@app/persistence';
import { DescribeLeaderboard } from './api-docs';
import { wholeNumber } from './body';

@Controller('api/leaderboard')
export class LeaderboardController {
  constructor(private readonly leaderboard: LeaderboardRepository) {}

  @Get()
  @DescribeLeaderboard()
  async top(@Query('limit') limit?: string) {
    const n = limit === undefined ? 10 : wholeNumber(Number(limit), 'limit', 1, 100);
    return { players: await this.leaderboard.topPlayers(n) };
  }
}
