import { Inject, Injectable } from '@nestjs/common';
import { TokenBucket } from '@app/gateway';
import { GameMetrics, LimitName } from '@app/observability';
import { LaterRefusal, refusalLater, RoomErrorCode } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';
import { ADDRESS_BUDGETS, AddressBudget } from './address-limits';

/**
 * The limit label in /metrics for each surface counted for the whole instance. The surfaces are those
 * of the per-address budgets.
 */
export const INSTANCE_LIMITS: Readonly<Record<AddressBudget, LimitName>> = {
  open: 'instance_open_rate',
  join: 'instance_join_rate',
  deck: 'instance_deck_rate',
  lookup: 'instance_lookup_rate',
  spectator: 'instance_spectator_rate',
  image: 'instance_image_rate',
};

/**
 * The instance-wide budgets of the anonymous surfaces (README "Limits"). Each surface has one token
 * bucket for every client address together, which holds a minute's worth at once and refills
 * evenly. The per-address budgets stop one client. These budgets stop many clients, or one client
 * that rotates its address, from making the instance open, seat, store or look up without end. A
 * request past a budget gets 503 `overloaded` with the seconds until the next token, before its
 * body is read or anything is written (at the front door, front-door.ts).
 */
@Injectable()
export class InstanceBudgets {
  private readonly buckets: Partial<Record<AddressBudget, TokenBucket>> = {};
  private readonly perMinute: Record<AddressBudget, number>;

  constructor(
    @Inject(SERVER_CONFIG) config: ServerConfig,
    private readonly metrics: GameMetrics,
  ) {
    this.perMinute = {
      open: config.instanceOpensPerMinute,
      join: config.instanceJoinsPerMinute,
      deck: config.instanceDeckWritesPerMinute,
      lookup: config.instanceLookupsPerMinute,
      spectator: config.instanceSpectatorsPerMinute,
      image: config.instanceImageUploadsPerMinute,
    };
    // Tests lengthen the minute, so that no token comes back while they count refusals.
    const windowSeconds = config.addressWindowSeconds ?? 60;
    const now = performance.now();
    for (const [budget, n] of Object.entries(this.perMinute) as [AddressBudget, number][]) {
      // A budget of 0 means no limit, and gets no bucket.
      if (n > 0) this.buckets[budget] = new TokenBucket(n / windowSeconds, n, now);
    }
  }

  /** Counts one request of `budget` for the instance, and returns the 503 `overloaded` when its bucket is empty. */
  refusal(budget: AddressBudget): LaterRefusal | undefined {
    const bucket = this.buckets[budget];
    const now = performance.now();
    if (!bucket || bucket.take(now)) return undefined;
    this.metrics.limitRefused(INSTANCE_LIMITS[budget]);
    // The refusal names the surface in the same words as the per-address refusal does.
    const { what } = ADDRESS_BUDGETS[budget];
    const seconds = Math.max(1, Math.ceil(bucket.secondsUntilToken(now)));
    return refusalLater(
      RoomErrorCode.Overloaded,
      `this server takes at most ${this.perMinute[budget]} ${what} a minute from all clients together; nothing was recorded, retry in ${seconds} s`,
      seconds,
    );
  }
}
