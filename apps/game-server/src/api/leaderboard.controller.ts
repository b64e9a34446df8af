import { invalid, wholeNumber } from '@app/protocol';
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
    const n = limit === undefined ? 10 : wholeNumber(Number(limit), 'limit', 1, 100);
    // Trivia's by default, as before games other than trivia finished games.
    const kind = game ?? trivia.kind;
    if (!GAMES.some((g) => g.kind === kind)) throw invalid('game', `must be one of ${GAMES.map((g) => g.kind).join(', ')}`);
    return { players: await this.leaderboard.topPlayers(kind, n) };
  }
}
