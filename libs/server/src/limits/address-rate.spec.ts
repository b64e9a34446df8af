import { AddressRate, SITE_ALLOWANCE_FACTOR } from './address-rate';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe(AddressRate.name, () => {
  it('allows `burst` per window from one address, then refuses with the seconds until the window ends, spending nothing', () => {
    const clock = manualClock();
    const rate = new AddressRate({ perMinute: 3, burst: 3 }, 1000, clock.now);
    expect([1, 2, 3].map(() => rate.take('203.0.113.7').ok)).toEqual([true, true, true]);
    clock.advance(20_000);
    expect(rate.take('203.0.113.7')).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(rate.take('198.51.100.1').ok).toBe(true);
    clock.advance(40_000);
    expect(rate.take('203.0.113.7').ok).toBe(true);
  });

  it('never holds more addresses than its cap, however many come: the least recently seen goes', () => {
    const clock = manualClock();
    const rate = new AddressRate({ perMinute: 1, burst: 1 }, 500, clock.now);
    for (let i = 0; i < 20_000; i++) {
      expect(rate.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`).ok).toBe(true);
      expect(rate.entries).toBeLessThanOrEqual(500);
    }
    expect(rate.entries).toBe(500);
    // The latest 500 addresses are still held (and spent), but the first was forgotten and gets a
    // fresh allowance.
    expect(rate.take('10.0.78.31').ok).toBe(false); // i = 19,999
    expect(rate.take('10.0.76.64').ok).toBe(false); // i = 19,520
    expect(rate.take('10.0.0.0').ok).toBe(true);
    expect(rate.entries).toBe(500);
  });

  it('bounds IPv6 addresses by their /64 and /48 alike: a site’s many /64s share the /48’s allowance', () => {
    const clock = manualClock();
    const rate = new AddressRate({ perMinute: 1, burst: 1 }, 1000, clock.now);
    // One /64 has one allowance, whatever the interface id.
    expect(rate.take('2001:db8:1:1::1').ok).toBe(true);
    expect(rate.take('2001:db8:1:1::2').ok).toBe(false);
    // Other /64s of the same /48 each have their own allowance, until the /48 has spent
    // SITE_ALLOWANCE_FACTOR.
    const answers = Array.from({ length: 20 }, (_, i) => rate.take(`2001:db8:1:${(i + 2).toString(16)}::1`).ok);
    expect(answers.filter(Boolean)).toHaveLength(SITE_ALLOWANCE_FACTOR - 1);
    expect(answers.slice(0, SITE_ALLOWANCE_FACTOR - 1).every(Boolean)).toBe(true);
    // Another /48 is another client.
    expect(rate.take('2001:db8:2:1::1').ok).toBe(true);
    // The entries are the /48 and the /64s it let through, plus the other /48 and its /64. A refused
    // /64 is not kept.
    expect(rate.entries).toBe(1 + SITE_ALLOWANCE_FACTOR + 2);
  });

  it('with perMinute 0 limits nothing and holds nothing', () => {
    const rate = new AddressRate({ perMinute: 0, burst: 1 }, 10);
    for (let i = 0; i < 100; i++) expect(rate.take('203.0.113.7').ok).toBe(true);
    expect(rate.entries).toBe(0);
  });
});
