import { codeTable } from '@game-rooms/client';
import { CARDS_WIRE } from '../cards/src/cards.wire.js';
import { TRIVIA_WIRE } from '../trivia/src/trivia.wire.js';

// The code table of compact-v2 and compact-v3 that the server and its clients speak: each game's
// section, derived from the game's own schemas, in one versioned table. A client decoding either
// passes it as `codes`; the client package publishes it as `@game-rooms/client/wire-codes`.
// It imports the games' wire files, not their doors (`@app/games/<game>`), and names them with
// `.js`: the client package builds this file as ESM for the browser and Node, and a game's door
// would bring its rules along.

/**
 * Version 2 of the table: the sections of the games that shipped with it, in the order they were
 * added (a new game goes at the end). Version 2 added compact-v3 (its rules, `v3` in a section,
 * and the name at the end of each `wire` enum); compact-v2 encodes as it did with version 1.
 */
export const WIRE_CODES = codeTable(2, [TRIVIA_WIRE.codes, CARDS_WIRE.codes]);
