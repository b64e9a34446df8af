import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DECK_TOKENS_MAX, EDIT_TOKEN_PATTERN, RoomErrorCode, RoomException } from '@app/protocol';
import { DeckErrorCode, deckError } from './deck.errors';

// A deck's edit token is random, is shown once, and is kept only as its SHA-256. The token has 256
// random bits, so a plain hash is enough: there is no dictionary to guess from. The digests are
// compared in constant time, so that the comparison does not tell how much of a guess was right.

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

/** Tells whether `token` is the one whose hash was kept. It is false when there is no token or no hash. */
export function editTokenMatches(token: string | undefined, hash: Buffer | null): boolean {
  if (token === undefined || hash === null || hash.length !== 32) return false;
  return timingSafeEqual(hashEditToken(token), hash);
}

/**
 * Refuses a change to a deck that nobody may edit, which is the built-in deck or one made before edit
 * tokens (403 `deck_read_only`). It also refuses a change without the deck's edit token or with
 * another token (403 `forbidden`). `doing` says what the token is needed for, and goes into the
 * message.
 */
export function checkEditRight(
  deck: { readonly builtin: boolean; readonly editTokenHash: Buffer | null },
  token: string | undefined,
  doing = 'changing a deck',
): void {
  if (deck.editTokenHash === null) {
    throw deckError(
      DeckErrorCode.DeckReadOnly,
      deck.builtin ? 'the built-in deck cannot be changed' : 'this deck was made before decks had edit tokens and cannot be changed',
    );
  }
  if (!editTokenMatches(token, deck.editTokenHash)) {
    throw new RoomException(
      RoomErrorCode.Forbidden,
      token === undefined ? `${doing} needs its edit token as Authorization: Bearer <editToken>` : 'this is not the deck’s edit token',
    );
  }
}

/**
 * Reads the edit tokens a caller presents to `GET /api/decks` as `Authorization: Bearer t1, t2, ...`.
 * Without the header there are none. Anything else in the header is refused with a 400 that names
 * what is wrong, rather than read as a shorter list.
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
