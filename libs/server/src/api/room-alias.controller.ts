import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Type, UseGuards } from '@nestjs/common';
import { SEAT_TOKENS, SeatTokens } from '@app/gateway';
import { OpenRoomBody, readBody, RoomErrorCode, RoomException } from '@app/protocol';
import { AdmissionGuard } from '../limits/admission.guard';
import { LookupGuard, OpenGuard, SpectatorGuard } from '../limits/anonymous-work.guard';
import { GameRegistry, GameRoutes } from '../rooms/games';
import { RoomsService } from '../rooms/rooms.service';
import { DescribeAliasClose, DescribeAliasOpen, DescribeAliasSpectate, DescribeAliasSummary } from './api-docs';

/**
 * Builds the controller of one alias of the generic routes (the registry's `aliases`). `/api/<path>`
 * opens a room of the alias's game, and `/api/<path>/{code}` finds, watches and closes one. They make
 * the same RoomsService calls as `/api/rooms`, with the same guards, but only for that game: a room
 * of another game answers 404. Only the answer to opening a room is in the game's own words.
 */
export function roomAliasController(path: string, routes: GameRoutes): Type {
  const kind = routes.game.kind;
  // A refused close asks for the token of the seat that opens a room of this game, as it did before
  // the alias became generic.
  const opener = routes.game.opening?.openerRole ?? 'host';

  @Controller(`api/${path}`)
  class RoomAliasController {
    constructor(
      readonly rooms: RoomsService,
      @Inject(SEAT_TOKENS) readonly tokens: SeatTokens,
    ) {}

    // The game's own settings schema reads the body, and its refusal names the bad field.
    @Post()
    @DescribeAliasOpen(path, routes)
    @UseGuards(AdmissionGuard, OpenGuard)
    async open(@Body() body: unknown) {
      return routes.opened(await this.rooms.openGame(kind, readBody(OpenRoomBody, body)));
    }

    @Post(':code/spectators')
    @DescribeAliasSpectate(path, routes)
    @UseGuards(AdmissionGuard, SpectatorGuard)
    spectate(@Param('code') code: string) {
      return this.rooms.addSpectator(code, kind);
    }

    @Get(':code')
    @DescribeAliasSummary(path, routes)
    @UseGuards(LookupGuard)
    summary(@Param('code') code: string) {
      return this.rooms.summary(code, kind);
    }

    @Delete(':code')
    @DescribeAliasClose(path, routes)
    @HttpCode(204)
    async close(@Param('code') code: string, @Headers('authorization') authorization?: string) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      const check = this.tokens.check(token);
      if (!check.ok) {
        throw new RoomException(
          RoomErrorCode.Unauthorized,
          `a valid ${opener} token is required as Authorization: Bearer <${opener}Token>`,
        );
      }
      await this.rooms.closeWithToken(code, check.claims, kind);
    }
  }
  return RoomAliasController;
}

/** Builds a controller for each alias in the registry. */
export function roomAliasControllers(registry: GameRegistry): Type[] {
  return Object.entries(registry.aliases).map(([path, routes]) => roomAliasController(path, routes));
}
