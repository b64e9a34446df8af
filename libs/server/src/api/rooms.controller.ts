import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Type, UseGuards } from '@nestjs/common';
import { SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { JoinRoomBody, OpenRoomBody, readBody, RoomErrorCode, RoomException } from '@app/protocol';
import { AdmissionGuard } from '../limits/admission.guard';
import { JoinGuard, LookupGuard, OpenGuard, SpectatorGuard } from '../limits/anonymous-work.guard';
import { GameRegistry } from '../rooms/games';
import { RoomsService } from '../rooms/rooms.service';
import { DescribeCloseRoom, DescribeCreateRoom, DescribeJoinRoom, DescribeRoomSummary, DescribeSpectate } from './api-docs';

/**
 * Builds the generic routes of rooms (`/api/rooms`) for the registry's games. It is built per
 * registry, because the API document for opening a room and for a room's summary names each game.
 */
export function roomsController(registry: GameRegistry): Type {
  @Controller('api/rooms')
  class RoomsController {
    constructor(
      private readonly rooms: RoomsService,
      @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
    ) {}

    @Post()
    @DescribeCreateRoom(registry)
    @UseGuards(AdmissionGuard, OpenGuard)
    async create(@Body() body: unknown) {
      const b = readBody(OpenRoomBody, body);
      // With `game`, this opens a room of any game. Without it, it opens a room of the default game and
      // answers as that game's clients know.
      if (b.game !== undefined) return this.rooms.openGame(b.game, b);
      const routes = registry.defaultGame;
      if (!routes) return this.rooms.openGame(registry.defaultKind, b);
      return routes.opened(await this.rooms.openGame(routes.game.kind, b));
    }

    @Post(':code/players')
    @DescribeJoinRoom()
    @UseGuards(AdmissionGuard, JoinGuard)
    join(@Param('code') code: string, @Body() body: unknown) {
      return this.rooms.joinRoom(code, readBody(JoinRoomBody, body).name);
    }

    @Post(':code/spectators')
    @DescribeSpectate()
    @UseGuards(AdmissionGuard, SpectatorGuard)
    spectate(@Param('code') code: string) {
      return this.rooms.addSpectator(code);
    }

    @Get(':code')
    @DescribeRoomSummary(registry)
    @UseGuards(LookupGuard)
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
        throw new RoomException(
          RoomErrorCode.Unauthorized,
          'a valid token of a seat that may close the room (its host or its owner) is required as Authorization: Bearer <token>',
        );
      }
      await this.rooms.closeWithToken(code, check.claims);
    }
  }
  return RoomsController;
}
