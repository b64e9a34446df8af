import { Inject, Injectable } from '@nestjs/common';
import { GameMetrics, LimitName } from '@app/observability';
import { LaterRefusal, refusalLater, RoomErrorCode } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';
import { AddressRate } from './address-rate';

/** What is counted per client address, with the limit label it is counted under in /metrics. */
export const ADDRESS_BUDGETS = {
  open: { limit: 'open_rate', what: 'rooms and tables opened' },
  join: { limit: 'join_rate', what: 'joins' },
  deck: { limit: 'deck_rate', what: 'decks created or imported' },
  lookup: { limit: 'lookup_rate', what: 'room lookups' },
  spectator: { limit: 'spectator_rate', what: 'spectator seats asked for' },
  image: { limit: 'image_rate', what: 'pictures uploaded or taken out' },
} as const satisfies Record<string, { limit: LimitName; what: string }>;

export type AddressBudget = keyof typeof ADDRESS_BUDGETS;

/**
 * The per-address budgets of the public routes (README "Limits"). Each budget has its own table of
 * at most ADDRESS_TABLE_ENTRIES addresses. A request past its budget gets 429 `rate_limited` with
 * the seconds to wait, before its body is read or anything is written (at the front door,
 * front-door.ts).
 */
@Injectable()
export class AddressLimits {
  private readonly rates: Record<AddressBudget, AddressRate>;

  constructor(
    @Inject(SERVER_CONFIG) config: ServerConfig,
    private readonly metrics: GameMetrics,
  ) {
    const entries = config.addressTableEntries;
    // Every budget but opening allows `n` in a window of one minute. Opening's burst is a setting of its own.
    const windowSeconds = config.addressWindowSeconds ?? 60;
    const perMinute = (n: number) => new AddressRate({ perMinute: (n * 60) / windowSeconds, burst: n }, entries);
    this.rates = {
      open: new AddressRate({ perMinute: config.openRatePerMinute, burst: config.openBurst }, entries),
      join: perMinute(config.joinsPerMinute),
      deck: perMinute(config.deckWritesPerMinute),
      lookup: perMinute(config.lookupsPerMinute),
      spectator: perMinute(config.spectatorsPerMinute),
      image: perMinute(config.imageUploadsPerMinute),
    };
  }

  /** Counts one request of `budget` by the client at `ip`, and returns the 429 `rate_limited` past the budget. */
  refusal(budget: AddressBudget, ip: string | undefined): LaterRefusal | undefined {
    const taken = this.rates[budget].take(ip);
    if (taken.ok) return undefined;
    const { limit, what } = ADDRESS_BUDGETS[budget];
    this.metrics.limitRefused(limit);
    const seconds = taken.retryAfterSeconds;
    return refusalLater(
      RoomErrorCode.RateLimited,
      `too many ${what} from this address; nothing was recorded, retry in ${seconds} s`,
      seconds,
    );
  }

  /** How many addresses one budget's table holds. */
  entries(budget: AddressBudget): number {
    return this.rates[budget].entries;
  }
}
