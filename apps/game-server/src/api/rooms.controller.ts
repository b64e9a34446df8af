import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { JoinRoomBody, OpenRoomBody, readBody, RoomErrorCode, RoomException } from '@app/protocol';
import { trivia } from '@app/games/trivia';
import { AdmissionGuard } from '../limits/admission.guard';
import { OpenRateGuard } from '../limits/open-rate.guard';
import { RoomsService } from '../rooms/rooms.service';
import { DescribeCloseRoom, DescribeCreateRoom, DescribeJoinRoom, DescribeRoomSummary, DescribeSpectate } from './api-docs';

@Controller('api/rooms')
export class RoomsController {
  constructor(
    private readonly rooms: RoomsService,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
  ) {}

  @Post()
  @DescribeCreateRoom()
  @UseGuards(AdmissionGuard, OpenRateGuard)
  async create(@Body() body: unknown) {
    const b = readBody(OpenRoomBody, body);
    // Without `game`, a trivia room, answered as trivia's clients know it; with it, any game's.
    if (b.game !== undefined) return this.rooms.openGame(b.game, b);
    const { roomId, code, token } = await this.rooms.openGame(trivia.kind, b);
    return { roomId, code, hostToken: token };
  }

  @Post(':code/players')
  @DescribeJoinRoom()
  @UseGuards(AdmissionGuard)
  join(@Param('code') code: string, @Body() body: unknown) {
    return this.rooms.joinRoom(code, readBody(JoinRoomBody, body).name);
  }

  @Post(':code/spectators')
  @DescribeSpectate()
  @UseGuards(AdmissionGuard)
  spectate(@Param('code') code: string) {
    return this.rooms.addSpectator(code);
  }

  @Get(':code')
  @DescribeRoomSummary()
  summary(@Param('code') code: string) {
    return this.rooms.summary(code);
  }

  @Delete(':code')
  @DescribeCloseRoom()
  @HttpCode(204)
  async close(@Param('code') code: string, @Headers('authorization') authorization?: string) {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const check = this.tokens.check(token);
    if (!check.ok) {
      throw new RoomException(RoomErrorCode.Unauthorized, 'a valid token of a seat that may close the room (its host or its owner) is required as Authorization: Bearer <token>');
    }
    await this.rooms.closeWithToken(code, check.claims);
  }
}
