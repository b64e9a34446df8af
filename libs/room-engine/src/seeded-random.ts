/**
 * A small, fast PRNG (mulberry32) seeded from the room's seed and the decision's time, so that
 * the same decision made again (a replay after a restart) draws the same numbers.
 */
export function seededRandom(seed: number, now: number): () => number {
  let a = hash(seed, now);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(seed: number, now: number): number {
  // Mix the seed with both halves of the millisecond time (past 2^32).
  let h = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b);
  h ^= Math.imul(now >>> 0, 0xc2b2ae35);
  h ^= Math.imul(Math.floor(now / 4294967296), 0x27d4eb2f);
  h ^= h >>> 16;
  return h | 0;
}
