import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { GameMetrics } from '@app/observability';
import { RoomErrorCode, retryLater } from '@app/protocol';
import { ServerConfig } from '../config/server-config';
import { SERVER_CONFIG } from '../tokens';
import { clientKey } from './client-address';

/**
 * Opening rooms and tables, counted per client address in this process (PROTOCOL.md section 11):
 * at most OPEN_BURST in a window of OPEN_BURST / OPEN_RATE_PER_MINUTE minutes, which starts at
 * the address's first open. Each address is one entry, gone when its window ends.
 */
@Injectable()
export class OpenRateLimiter {
  private readonly limiter?: RateLimiterMemory;

  constructor(
    @Inject(SERVER_CONFIG) config: ServerConfig,
    private readonly metrics: GameMetrics,
  ) {
    if (config.openRatePerMinute > 0) {
      this.limiter = new RateLimiterMemory({ points: config.openBurst, duration: (config.openBurst * 60) / config.openRatePerMinute });
    }
  }

  /** Counts one open by the client at `ip`; throws 429 `rate_limited` with the seconds to wait past the limit. */
  async consume(ip: string | undefined): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(clientKey(ip));
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      this.metrics.limitRefused('open_rate');
      const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw retryLater(RoomErrorCode.RateLimited, `too many rooms and tables opened from this address; retry in ${seconds} s`, seconds);
    }
  }
}
