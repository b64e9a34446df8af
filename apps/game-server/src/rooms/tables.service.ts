import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SEAT_TOKENS, SeatClaims, SeatTokens } from '@app/gateway';
import { cards, openCards, tableSettings } from '@app/games/cards';
import { GameMetrics } from '@app/observability';
import { badData, isPlainObject } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';
import { RoomsService } from './rooms.service';

/**
 * Card practice tables over HTTP (PROTOCOL.md section 8): opening one, spectating, its public
 * summary, and closing it with the player's token. The live tables are RoomsService's rooms.
 */
@Injectable()
export class TablesService {
  constructor(
    private readonly rooms: RoomsService,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    private readonly metrics: GameMetrics,
  ) {}

  async openTable(body: unknown): Promise<{ tableId: string; code: string; playerToken: string }> {
    // Whoever chose the seed would know every deck, the bots' cards with it: only a server started
    // for tests takes one. Otherwise the deck comes from crypto randomness alone.
    if (!this.config.allowTestSeeds && isPlainObject(body) && body.seed !== undefined) {
      this.metrics.limitRefused('test_seed');
      throw badData('seed', 'is taken only by a server started for tests (ALLOW_TEST_SEEDS=1); leave it out and the deck is random');
    }
    const settings = tableSettings(body, randomInt(2 ** 31 - 1));
    const playerId = randomUUID();
    const { roomId: tableId, code } = await this.rooms.open(cards.kind, { playerId, ...settings }, (ids, openedAt) =>
      openCards({ tableId: ids.roomId, code: ids.code, playerId, settings, openedAt }),
    );
    return { tableId, code, playerToken: this.tokens.issue({ roomId: tableId, code, role: 'player', seat: playerId }) };
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
