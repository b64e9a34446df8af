// What a deck may hold (PROTOCOL.md section 12), the same whether it arrives as JSON or CSV: the
// limits are the deck schema's (packages/client/src/http/decks.ts).
export { DECK_LIMITS } from '@app/protocol';

/** The largest CSV `POST /api/decks/import` reads: 200 full rows of multi-byte text fit with room to spare. */
export const DECK_CSV_MAX_BYTES = 1024 * 1024;
