import { Inject, Injectable } from '@nestjs/common';
import { TokenBucket } from '@app/gateway';
import { GameMetrics, LimitName } from '@app/observability';
import { RoomErrorCode, retryLater } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';
import { AddressBudget } from './address-limits';

/** What is counted for the whole instance (the per-address budgets' surfaces), with its limit label in /metrics. */
export const INSTANCE_BUDGETS = {
  open: { limit: 'instance_open_rate', what: 'rooms and tables opened' },
  join: { limit: 'instance_join_rate', what: 'joins' },
  deck: { limit: 'instance_deck_rate', what: 'decks created or imported' },
  lookup: { limit: 'instance_lookup_rate', what: 'room lookups' },
  spectator: { limit: 'instance_spectator_rate', what: 'spectator seats' },
} as const satisfies Record<AddressBudget, { limit: LimitName; what: string }>;

/**
 * The instance-wide budgets of the anonymous surfaces (README "Limits"): one token bucket per
 * surface for every client address together, a minute's worth at once that refills evenly. The
 * per-address budgets stop one client; these stop many clients, or one that rotates its address,
 * from making the instance open, seat, store or look up without end. A request past one gets 503
 * `overloaded` with the seconds until the next token, before its body is read or anything is written.
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
    };
    // Tests lengthen the minute, so that no token comes back while they count refusals.
    const windowSeconds = config.addressWindowSeconds ?? 60;
    const now = performance.now();
    for (const [budget, n] of Object.entries(this.perMinute) as [AddressBudget, number][]) {
      // 0: no limit, and no bucket.
      if (n > 0) this.buckets[budget] = new TokenBucket(n / windowSeconds, n, now);
    }
  }

  /** Counts one request of `budget` for the instance; throws 503 `overloaded` when its bucket is empty. */
  take(budget: AddressBudget): void {
    const bucket = this.buckets[budget];
    const now = performance.now();
    if (!bucket || bucket.take(now)) return;
    const { limit, what } = INSTANCE_BUDGETS[budget];
    this.metrics.limitRefused(limit);
    const seconds = Math.max(1, Math.ceil(bucket.secondsUntilToken(now)));
    throw retryLater(
      RoomErrorCode.Overloaded,
      `this server takes at most ${this.perMinute[budget]} ${what} a minute from all clients together; nothing was recorded, retry in ${seconds} s`,
      seconds,
    );
  }
}
