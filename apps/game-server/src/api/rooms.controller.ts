import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { OpenRateGuard } from '../limits/open-rate.guard';
import { RoomsService } from '../rooms/rooms.service';
import { DescribeCloseRoom, DescribeCreateRoom, DescribeJoinRoom, DescribeRoomSummary, DescribeSpectate } from './api-docs';
import { asObject, decimal, optionalUuid, printable, wholeNumber } from './body';

@Controller('api/rooms')
export class RoomsController {
  constructor(
    private readonly rooms: RoomsService,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
  ) {}

  @Post()
  @DescribeCreateRoom()
  @UseGuards(OpenRateGuard)
  create(@Body() body: unknown) {
    const b = asObject(body);
    const maxPlayers = wholeNumber(b.maxPlayers, 'maxPlayers', 1, 100, 20);
    return this.rooms.createRoom({
      hostName: printable(b.hostName, 'hostName', 32),
      deckId: optionalUuid(b.deckId, 'deckId'),
      questionCount: wholeNumber(b.questionCount, 'questionCount', 1, 50, 10),
      secondsPerQuestion: decimal(b.secondsPerQuestion, 'secondsPerQuestion', 0.2, 300, 20),
      revealSeconds: decimal(b.revealSeconds, 'revealSeconds', 0, 60, 4),
      maxPlayers,
      minPlayers: wholeNumber(b.minPlayers, 'minPlayers', 1, 100, 2),
    });
  }

  @Post(':code/players')
  @DescribeJoinRoom()
  join(@Param('code') code: string, @Body() body: unknown) {
    return this.rooms.joinRoom(code, printable(asObject(body).name, 'name', 32));
  }

  @Post(':code/spectators')
  @DescribeSpectate()
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
