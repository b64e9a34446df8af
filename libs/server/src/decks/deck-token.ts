import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DECK_TOKENS_MAX, EDIT_TOKEN_PATTERN, RoomErrorCode, RoomException } from '@app/protocol';

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

/**
 * The edit tokens a caller presents to `GET /api/decks`: `Authorization: Bearer t1, t2, ...` (none
 * without the header). Anything else there is a 400 naming what is wrong, not a shorter list.
 */
export function presentedTokens(authorization: string | undefined): string[] {
  if (authorization === undefined || authorization.trim() === '') return [];
  const given = /^Bearer\s+(.*)$/is.exec(authorization.trim());
  const bad = (what: string) => new RoomException(RoomErrorCode.BadData, `authorization ${what}`);
  if (!given) throw bad('must be `Bearer` and edit tokens separated by commas');
  const tokens = given[1].split(',').map((t) => t.trim());
  if (tokens.length > DECK_TOKENS_MAX) throw bad(`must hold at most ${DECK_TOKENS_MAX} edit tokens`);
  const wrong = tokens.findIndex((t) => !EDIT_TOKEN_PATTERN.test(t));
  if (wrong >= 0) throw bad(`token ${wrong + 1} is not a deck's edit token (43 base64url characters)`);
  return tokens;
}
