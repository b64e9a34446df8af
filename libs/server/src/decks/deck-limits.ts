// These limits say what a deck may hold (PROTOCOL.md section 12). They are the same whether the deck
// arrives as JSON or as CSV, because they are the deck schema's (packages/client/src/http/decks.ts).
export { DECK_LIMITS } from '@app/protocol';

/** The largest CSV that `POST /api/decks/import` reads. 200 full rows of multi-byte text fit with room to spare. */
export const DECK_CSV_MAX_BYTES = 1024 * 1024;
