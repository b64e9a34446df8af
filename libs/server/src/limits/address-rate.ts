import { LRUCache } from 'lru-cache';
import { clientKeys } from './client-address';

/** One budget: at most `burst` in a window of `burst / perMinute` minutes. A perMinute of 0 means no limit. */
export interface RateBudget {
  readonly perMinute: number;
  readonly burst: number;
}

/** A /48 holds 65,536 /64s, so it may spend this many times one /64's allowance. */
export const SITE_ALLOWANCE_FACTOR = 8;

interface Window {
  spent: number;
  readonly endsAt: number;
}

/**
 * One budget, counted per client address in this process (PROTOCOL.md section 11): at most `burst`
 * in a window of `burst / perMinute` minutes, which starts at the address's first request. An IPv6
 * client spends from its /64 and from its /48, which gets SITE_ALLOWANCE_FACTOR times as much. The
 * table holds at most `maxEntries` addresses. Past that, the least recently seen address is
 * forgotten: a client whose address was followed by that many others gets a fresh allowance, and
 * that costs an attacker that many addresses. An entry also goes when its window ends.
 */
export class AddressRate {
  private readonly windows?: LRUCache<string, Window>;
  private readonly windowMs: number;

  constructor(
    private readonly budget: RateBudget,
    maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = budget.perMinute > 0 ? (budget.burst * 60_000) / budget.perMinute : 0;
    if (budget.perMinute > 0) this.windows = new LRUCache<string, Window>({ max: maxEntries });
  }

  /**
   * Spends one from every key of the client at `ip`. When one of the keys is spent out, it spends
   * none and returns the seconds until that key's window ends (at least 1).
   */
  take(ip: string | undefined): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const windows = this.windows;
    if (!windows) return { ok: true };
    const now = this.now();
    const keys = clientKeys(ip).map((key, i) => ({
      key,
      allowance: i === 0 ? this.budget.burst : this.budget.burst * SITE_ALLOWANCE_FACTOR,
    }));
    const current = keys.map(({ key, allowance }) => {
      const open = windows.get(key);
      return { key, allowance, window: open && open.endsAt > now ? open : undefined };
    });
    const spent = current.find(({ window, allowance }) => window && window.spent >= allowance);
    if (spent?.window) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((spent.window.endsAt - now) / 1000)) };
    for (const { key, window } of current) {
      if (window) window.spent++;
      else windows.set(key, { spent: 1, endsAt: now + this.windowMs });
    }
    return { ok: true };
  }

  /** How many addresses the table holds now, never more than its cap. */
  get entries(): number {
    return this.windows?.size ?? 0;
  }
}
