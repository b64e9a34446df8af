import { Injectable } from '@nestjs/common';
import { SeatClaims } from '@app/gateway';
import { cards } from '@app/games/cards';
import { OpenRoomBody, readBody } from '@app/protocol';
import { RoomsService } from './rooms.service';

/**
 * Card practice tables over HTTP (PROTOCOL.md section 8): opening one, spectating, its public
 * summary, and closing it with the player's token. The live tables are RoomsService's rooms.
 */
@Injectable()
export class TablesService {
  constructor(private readonly rooms: RoomsService) {}

  /** `POST /api/tables`: `POST /api/rooms {game: "cards", ...}` answered in the table's words. */
  async openTable(body: unknown): Promise<{ tableId: string; code: string; playerToken: string }> {
    const { roomId, code, token } = await this.rooms.openGame(cards.kind, readBody(OpenRoomBody, body));
    return { tableId: roomId, code, playerToken: token };
  }

  // The table paths are aliases of the room paths (`/api/rooms/{code}...`) for card tables only.
  addSpectator(rawCode: string): Promise<{ spectatorToken: string }> {
    return this.rooms.addSpectator(rawCode, cards.kind);
  }

  summary(rawCode: string): Promise<Record<string, unknown>> {
    return this.rooms.summary(rawCode, cards.kind);
  }

  closeByPlayer(rawCode: string, claims: SeatClaims): Promise<void> {
    return this.rooms.closeWithToken(rawCode, claims, cards.kind);
  }
}
