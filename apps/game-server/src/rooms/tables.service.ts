import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SEAT_TOKENS, SeatClaims, SeatTokens } from '@app/gateway';
import { cards, openingCheckpoint, tableSettings } from '@app/games/cards';
import { GameMetrics } from '@app/observability';
import { CardTableRepository } from '@app/persistence';
import { badData, isPlainObject, RoomErrorCode, RoomException } from '@app/protocol';
import { Clock } from '@app/room-engine';
import { ServerConfig } from '../config/server-config';
import { JsonLog } from '../config/json-log';
import { LiveRoomCap } from '../limits/live-room-cap';
import { CLOCK, JSON_LOG, SERVER_CONFIG } from '../tokens';
import { newRoomCode } from './room-code';
import { RoomsService } from './rooms.service';

/**
 * Card practice tables over HTTP (PROTOCOL.md section 8): opening one, spectating, its public
 * summary, and closing it with the player's token. The live tables are RoomsService's rooms.
 */
@Injectable()
export class TablesService {
  constructor(
    private readonly rooms: RoomsService,
    private readonly tables: CardTableRepository,
    @Inject(SEAT_TOKENS) private readonly tokens: SeatTokens,
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(JSON_LOG) private readonly log: JsonLog,
    private readonly cap: LiveRoomCap,
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
    this.cap.checkOpen(this.rooms.registry.size);
    const playerId = randomUUID();
    // Codes are shared with trivia's rooms; a clash with an open room is rare and simply retried.
    for (let attempt = 0; attempt < 8; attempt++) {
      const tableId = randomUUID();
      const code = newRoomCode();
      const checkpoint = openingCheckpoint(settings, this.clock.now());
      if ((await this.tables.openTable({ id: tableId, code, playerId, settings, checkpoint }, this.config.commandTimeoutMs)) === 'created') {
        this.log.info('table opened', { room: code });
        return { tableId, code, playerToken: this.tokens.issue({ roomId: tableId, code, role: 'player', seat: playerId }) };
      }
    }
    throw new RoomException(RoomErrorCode.DatabaseUnavailable, 'could not find a free table code; retry');
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
