import { createHash } from 'node:crypto';

/**
 * The content hash a room that plays a built-in deck keeps instead of a copy (`rooms.deck_hash`):
 * SHA-256 of the items as the room plays them, base64url. A room is brought back only with a deck
 * of the same hash, so a replay draws the very questions the room drew live.
 */
export function deckHash(items: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('base64url');
}
