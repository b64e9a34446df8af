import { codeTable } from '@game-rooms/client';
import { CARDS_WIRE_CODES } from '../cards/src/cards.codes';
import { TRIVIA_WIRE_CODES } from '../trivia/src/trivia.codes';

// The compact-v2 code table this server and its clients speak: each game's own section, in one
// versioned table, as plain data.

/** Version 1 of the table: each game's section, in the order they were added (a new game goes at the end). */
export const WIRE_CODES = codeTable(1, [TRIVIA_WIRE_CODES, CARDS_WIRE_CODES]);
