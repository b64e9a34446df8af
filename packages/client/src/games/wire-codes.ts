import { codeTable } from '../codec/code-table.js';
import { CARDS_WIRE_CODES } from './cards.codes.js';
import { TRIVIA_WIRE_CODES } from './trivia.codes.js';

// The code table of compact-v2 and compact-v3 that the server and its clients speak: each game's
// own section, in one versioned table, as plain data. A client decoding either passes it as `codes`.

/**
 * Version 2 of the table: each game's section, in the order they were added (a new game goes at
 * the end). Version 2 added compact-v3 (its rules, `v3` in a section, and the name at the end of
 * each `wire` enum); compact-v2 encodes as it did with version 1.
 */
export const WIRE_CODES = codeTable(2, [TRIVIA_WIRE_CODES, CARDS_WIRE_CODES]);
