import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { AdmissionGuard } from '../limits/admission.guard';
import { OpenRateGuard } from '../limits/open-rate.guard';
import { TablesService } from '../rooms/tables.service';
import { DescribeCloseTable, DescribeOpenTable, DescribeSpectateTable, DescribeTableSummary } from './api-docs';

// The body of POST /api/tables is read by the game's own schema (TABLE_SETTINGS), which names the bad field.
@Controller('api/tables')
export class TablesController {
  constructor(
    private readonly tables: TablesService,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
  ) {}

  @Post()
  @DescribeOpenTable()
  @UseGuards(AdmissionGuard, OpenRateGuard)
  open(@Body() body: unknown) {
    return this.tables.openTable(body);
  }

  @Post(':code/spectators')
  @DescribeSpectateTable()
  @UseGuards(AdmissionGuard)
  spectate(@Param('code') code: string) {
    return this.tables.addSpectator(code);
  }

  @Get(':code')
  @DescribeTableSummary()
  summary(@Param('code') code: string) {
    return this.tables.summary(code);
  }

  @Delete(':code')
  @DescribeCloseTable()
  @HttpCode(204)
  async close(@Param('code') code: string, @Headers('authorization') authorization?: string) {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const check = this.tokens.check(token);
    if (!check.ok) {
      throw new RoomException(RoomErrorCode.Unauthorized, 'a valid player token is required as Authorization: Bearer <playerToken>');
    }
    await this.tables.closeByPlayer(code, check.claims);
  }
}
