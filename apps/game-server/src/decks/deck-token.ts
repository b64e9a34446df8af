import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// A deck's edit token: random, shown once, kept only as its SHA-256. The token has 256 random
// bits, so a plain hash is enough (nothing to guess a dictionary from); comparing the digests
// in constant time keeps the comparison from telling how much of a guess was right.

export interface EditToken {
  readonly token: string;
  readonly hash: Buffer;
}

export function newEditToken(): EditToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashEditToken(token) };
}

export function hashEditToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Whether `token` is the one whose hash was kept; false for no token or no hash. */
export function editTokenMatches(token: string | undefined, hash: Buffer | null): boolean {
  if (token === undefined || hash === null || hash.length !== 32) return false;
  return timingSafeEqual(hashEditToken(token), hash);
}
