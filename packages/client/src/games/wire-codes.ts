import { codeTable } from '../codec/code-table.js';
import { CARDS_WIRE_CODES } from './cards.codes.js';
import { TRIVIA_WIRE_CODES } from './trivia.codes.js';

// The compact-v2 code table the server and its clients speak: each game's own section, in one
// versioned table, as plain data. A client decoding compact-v2 passes it as `codes`.

/** Version 1 of the table: each game's section, in the order they were added (a new game goes at the end). */
export const WIRE_CODES = codeTable(1, [TRIVIA_WIRE_CODES, CARDS_WIRE_CODES]);
