import { TokenBucket } from './token-bucket';

describe(TokenBucket.name, () => {
  it('gives its whole burst at once, then nothing until time refills it', () => {
    const bucket = new TokenBucket(2, 3, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([true, true, true, false]);
    // At two a second, a token comes back after 500 ms and not before.
    expect(bucket.take(499)).toBe(false);
    expect(bucket.take(500)).toBe(true);
    expect(bucket.take(500)).toBe(false);
  });

  it('never holds more than its burst, however long it rests', () => {
    const bucket = new TokenBucket(10, 2, 0);
    const taken = [1, 2, 3].map(() => bucket.take(3_600_000));
    expect(taken).toEqual([true, true, false]);
  });

  it('says how long until the next token, and 0 while one is there', () => {
    const bucket = new TokenBucket(0.5, 1, 0);
    expect(bucket.secondsUntilToken(0)).toBe(0);
    expect(bucket.take(0)).toBe(true);
    expect(bucket.secondsUntilToken(0)).toBe(2);
    expect(bucket.secondsUntilToken(1500)).toBeCloseTo(0.5);
    expect(bucket.secondsUntilToken(2000)).toBe(0);
  });

  it('takes nothing and adds nothing for a time read out of order', () => {
    const bucket = new TokenBucket(1, 1, 10_000);
    expect(bucket.take(10_000)).toBe(true);
    expect(bucket.take(5_000)).toBe(false);
    // The late reading did not move the bucket's clock back: a token is due at 11,000 still.
    expect(bucket.take(10_999)).toBe(false);
    expect(bucket.take(11_000)).toBe(true);
  });
});
