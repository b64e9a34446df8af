// What a deck may hold (PROTOCOL.md section 12), the same whether it arrives as JSON or CSV.

export const DECK_LIMITS = {
  name: 64,
  minQuestions: 1,
  maxQuestions: 200,
  text: 300,
  minChoices: 2,
  maxChoices: 6,
  choice: 120,
} as const;

/** The largest CSV `POST /api/decks/import` reads: 200 full rows of multi-byte text fit with room to spare. */
export const DECK_CSV_MAX_BYTES = 1024 * 1024;
