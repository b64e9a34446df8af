import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import {
  FinishedGameDetail,
  FinishedIdParams,
  FinishedPage,
  FinishedQuery,
  MAX_PAGE_SIZE,
  readBody,
  readQuery,
  RefusalsPage,
  RefusalsQuery,
  RoomCodeParams,
} from '@app/protocol';
import { DescribeAdmin } from '../api/api-docs';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminHistoryService } from './admin-history.service';
import { finishedCursor, finishedId, refusalCursor } from './history-query';

const BAD_QUERY = { status: 400, description: '`bad_data`: the message names the parameter (`code`, `from`, `to`, `cursor` or `limit`)' };

/**
 * The console's memory (issue 24): finished games and a room's refused commands, read from
 * PostgreSQL. Pages come newest first and use a keyset cursor: the client passes a page's `next`
 * back as `cursor`. The queries are read by their schemas (packages/client/src/http/admin.ts), and
 * the cursor's contents are read here.
 */
@Controller('admin/api')
@UseGuards(AdminTokenGuard)
export class AdminHistoryController {
  constructor(private readonly history: AdminHistoryService) {}

  @Get('finished')
  @DescribeAdmin(
    `Finished games, newest first: code, game, host, players, started and finished, winner, results id; ?code=, ?from= and ?to= (ISO dates or instants), ?cursor= (a page's next), ?limit= (1 to ${MAX_PAGE_SIZE}, 25)`,
    [BAD_QUERY],
    { query: FinishedQuery, ok: FinishedPage },
  )
  finished(@Query() query: Record<string, unknown>) {
    const { code, from, to, cursor, limit } = readQuery(FinishedQuery, query);
    return this.history.finishedGames({
      ...(code !== undefined ? { code } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
      after: finishedCursor(cursor),
      limit,
    });
  }

  @Get('finished/:id')
  @DescribeAdmin(
    'One finished game with its results (as GET /api/results/{id} has them), even past the public 30 days while its row exists',
    [{ status: 404, description: '`finished_game_not_found`' }],
    { params: FinishedIdParams, ok: FinishedGameDetail },
  )
  finishedGame(@Param('id') id: string) {
    return this.history.finishedGame(finishedId(id));
  }

  @Get('rooms/:code/refusals')
  @DescribeAdmin(
    `The refused commands of the latest room with this code, live or closed, newest first: time, who (player id and name, host, spectator or operator), command type, error code, status, message; kept REFUSALS_KEPT_DAYS (7); ?cursor=, ?limit= (1 to ${MAX_PAGE_SIZE}, 25)`,
    [BAD_QUERY, { status: 404, description: '`room_not_found`: no room ever had this code' }],
    { params: RoomCodeParams, query: RefusalsQuery, ok: RefusalsPage },
  )
  refusals(@Param('code') code: string, @Query() query: Record<string, unknown>) {
    const room = readBody(RoomCodeParams, { code }, 'the path').code;
    const { cursor, limit } = readQuery(RefusalsQuery, query);
    return this.history.refusedCommands(room, limit, refusalCursor(cursor));
  }
}
