import { createHash } from 'node:crypto';

/**
 * Returns the content hash that a room playing a built-in deck keeps instead of a copy of the deck
 * (`rooms.deck_hash`). The hash is the SHA-256 of the items as the room plays them, in base64url. A
 * room is brought back only with a deck of the same hash, so a replay draws the very questions the
 * room drew live.
 */
export function deckHash(items: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('base64url');
}
