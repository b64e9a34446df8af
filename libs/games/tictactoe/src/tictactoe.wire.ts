import { z } from 'zod';
import { type ClientOf, commandData, defineWire, idField, integerField, plainEnum } from '@game-rooms/client';

// Tic-tac-toe's wire says what a seat sends and what the board sends. The compact codes are derived
// from these schemas. The client package builds this file into `@game-rooms/client/tictactoe`.

const mark = z.enum(['X', 'O']);
export const SEAT = z.object({ id: idField(z.string()), name: z.string(), mark, connected: z.boolean() });

/**
 * The board as everyone sees it. With `moveSeconds` and `moves` added (which nobody is sent), it is
 * also the room's state.
 */
export const BOARD = z.object({
  code: z.string(),
  phase: z.enum(['waiting', 'playing', 'finished', 'closed']),
  // The cells, the winner and the viewer's own mark travel as text in the compact profiles, as they
  // did before the codes were derived. Giving them a code would change what older clients decode.
  board: plainEnum(z.array(z.enum(['X', 'O', '']))),
  turn: mark,
  /** When the seat to move loses on time, or null when no clock runs. */
  moveBy: z.number().nullable(),
  winner: plainEnum(z.enum(['X', 'O', 'draw']).nullable()),
  seats: z.array(SEAT),
});

export const TICTACTOE_WIRE = defineWire({
  kind: 'tictactoe',
  stateEvent: 'ttt.state',
  commands: { 'ttt.move': commandData({ cell: integerField('must be a whole number from 0 to 8', 0, 8) }) },
  events: {
    /** `you` is the viewer's mark, or null for a spectator. */
    'ttt.state': BOARD.extend({ you: plainEnum(mark.nullable()) }),
    'ttt.joined': z.object({ seat: SEAT, moveBy: z.number().optional() }),
    'ttt.moved': z.object({ cell: z.number(), mark }),
    'ttt.finished': z.object({ winner: z.enum(['X', 'O', 'draw']) }),
    'ttt.presence': z.object({ id: z.string(), connected: z.boolean() }),
  },
});

/** A seat's connection to a board. Its `send` and `on` take only this game's commands and events. */
export type TicTacToeClient = ClientOf<typeof TICTACTOE_WIRE>;
