// What listing decks takes (docs/protocol.md section 15, "HTTP"), as plain values. The pages
// import them without zod, which a module of schemas would bring in, along with zod's eval probe,
// which the pages' Content-Security-Policy reports.

/** A page of `GET /api/decks` holds at most this many decks, and a request presents at most this many edit tokens. */
export const DECK_PAGE_MAX = 100;
export const DECK_TOKENS_MAX = 100;
/** An edit token as the server makes them (256 random bits), which is 43 base64url characters. */
export const EDIT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
