import { gameChoice, LeaderboardQuery, readBody, readQuery } from '@app/protocol';
import { Controller, Get, Query } from '@nestjs/common';
import { LeaderboardRepository } from '@app/persistence';
import { DescribeLeaderboard } from './api-docs';
import { GameRegistry } from '../rooms/games';

@Controller('api/leaderboard')
export class LeaderboardController {
  constructor(
    private readonly leaderboard: LeaderboardRepository,
    private readonly registry: GameRegistry,
  ) {}

  @Get()
  @DescribeLeaderboard()
  async top(@Query('limit') limit?: string, @Query('game') game?: string) {
    const query = readQuery(LeaderboardQuery, { limit, game });
    // Without `?game=`, the leaderboard is the default game's, as it was before other games had
    // finished games.
    const kinds = this.registry.games.map((g) => g.kind) as [string, ...string[]];
    const { game: kind } = readBody(gameChoice(kinds), { game: query.game ?? this.registry.defaultKind }, 'the query');
    return { players: await this.leaderboard.topPlayers(kind, query.limit) };
  }
}
