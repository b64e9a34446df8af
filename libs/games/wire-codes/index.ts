import { codeTable } from '@game-rooms/client';
import { CARDS_WIRE } from '../cards/src/cards.wire.js';
import { TRIVIA_WIRE } from '../trivia/src/trivia.wire.js';

// This is the code table of compact-v2 and compact-v3 that the server and its clients speak. Each
// game's section is derived from the game's own schemas, and all of them sit in one versioned table.
// A client decoding either profile passes the table as `codes`. The client package publishes it as
// `@game-rooms/client/wire-codes`.
// This file imports the games' wire files, not their doors (`@app/games/<game>`), because a game's
// door would bring its rules along. It names them with `.js` because the client package builds this
// file as ESM for the browser and Node.

/**
 * Version 2 of the table. It holds the sections of the games that shipped with it, in the order
 * they were added, and a new game goes at the end. Version 2 added compact-v3 (its rules, `v3` in a
 * section, and the name at the end of each `wire` enum). compact-v2 encodes as it did with version 1.
 */
export const WIRE_CODES = codeTable(2, [TRIVIA_WIRE.codes, CARDS_WIRE.codes]);
