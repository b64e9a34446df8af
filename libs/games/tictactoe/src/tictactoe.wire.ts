import { z } from 'zod';
import { type ClientOf, commandData, defineWire, idField, integerField, plainEnum, type WireCommands, type WireEvents } from '@game-rooms/client';

// Tic-tac-toe's wire, the small game the tests play to prove the engine knows no game: what a
// seat sends, what the board sends, and the compact codes derived from them. Only zod and the
// client package's generic pieces: the client package builds it into `@game-rooms/client/tictactoe`.

export const TICTACTOE_COMMANDS = {
  'ttt.move': commandData({ cell: integerField('must be a whole number from 0 to 8', 0, 8) }),
};

const mark = z.enum(['X', 'O']);
const seat = z.object({ id: idField(z.string()), name: z.string(), mark, connected: z.boolean() });

// The board's cells, the winner and the viewer's own mark go as text in the compact profiles, as
// they did before the codes were derived: a code for them would change what older clients decode.
export const TICTACTOE_EVENTS = {
  'ttt.state': z.object({
    code: z.string(),
    phase: z.enum(['waiting', 'playing', 'finished', 'closed']),
    board: plainEnum(z.array(z.enum(['X', 'O', '']))),
    turn: mark,
    moveBy: z.number().nullable(),
    winner: plainEnum(z.enum(['X', 'O', 'draw']).nullable()),
    seats: z.array(seat),
    /** Your mark; null for a spectator. */
    you: plainEnum(mark.nullable()),
  }),
  'ttt.joined': z.object({ seat, moveBy: z.number().optional() }),
  'ttt.moved': z.object({ cell: z.number(), mark }),
  'ttt.finished': z.object({ winner: z.enum(['X', 'O', 'draw']) }),
  'ttt.presence': z.object({ id: z.string(), connected: z.boolean() }),
};

/** Tic-tac-toe's wire with its compact codes, derived from the schemas in declaration order. */
export const TICTACTOE_WIRE = defineWire({ kind: 'tictactoe', commands: TICTACTOE_COMMANDS, events: TICTACTOE_EVENTS, stateEvent: 'ttt.state' });

/** Tic-tac-toe's section of the compact code table, derived from its schemas. */
export const TICTACTOE_WIRE_CODES = TICTACTOE_WIRE.codes;

export type TicTacToeCommands = WireCommands<typeof TICTACTOE_WIRE>;
export type TicTacToeEvents = WireEvents<typeof TICTACTOE_WIRE>;

/** A seat's connection to a tictactoe room: `send` and `on` take only this game's types and shapes. */
export type TicTacToeClient = ClientOf<typeof TICTACTOE_WIRE>;
