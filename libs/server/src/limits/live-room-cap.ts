import { Inject, Injectable } from '@nestjs/common';
import { GameMetrics } from '@app/observability';
import { RoomErrorCode, RoomException, retryLater } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';

// Rooms leave memory when they are idle (PASSIVATE_AFTER_SECONDS) or closed, and through the proxy a
// retry may also land on another instance.
const RETRY_AFTER_SECONDS = 5;

/**
 * MAX_LIVE_ROOMS: how many rooms and tables (of every game) this instance holds in memory at once.
 * At the cap, nothing new is opened, and no room that is not live here is activated (by a join, a
 * socket or a summary). Such requests get 503 `rooms_at_capacity` with Retry-After. Rooms already
 * live go on as ever.
 */
@Injectable()
export class LiveRoomCap {
  constructor(
    @Inject(SERVER_CONFIG) private readonly config: ServerConfig,
    private readonly metrics: GameMetrics,
  ) {}

  /** Called before opening a room. Throws when the instance is at the cap. */
  checkOpen(live: number): void {
    if (this.room(live) > 0) return;
    this.metrics.limitRefused('live_rooms');
    throw this.refusal();
  }

  /** Admits those of the rooms asked to go live together that fit. The others get the refusal. */
  admit(live: number, codes: readonly string[]): { admitted: string[]; refused: Map<string, RoomException> } {
    const fit = this.room(live);
    const refused = new Map(codes.slice(fit).map((code) => [code, this.refusal()] as const));
    for (let i = 0; i < refused.size; i++) this.metrics.limitRefused('live_rooms');
    return { admitted: codes.slice(0, fit), refused };
  }

  /** Whether, with `live` rooms live already, one of `count` rooms asked for together would be refused. */
  wouldRefuse(live: number, count: number): boolean {
    return count > this.room(live);
  }

  private room(live: number): number {
    return this.config.maxLiveRooms === 0 ? Infinity : Math.max(0, this.config.maxLiveRooms - live);
  }

  private refusal(): RoomException {
    return retryLater(
      RoomErrorCode.RoomsAtCapacity,
      `this instance holds its maximum of ${this.config.maxLiveRooms} live rooms; retry later`,
      RETRY_AFTER_SECONDS,
    );
  }
}
