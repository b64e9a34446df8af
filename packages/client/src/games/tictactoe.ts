import { z } from 'zod';
import type { ReconnectingClient } from '../client/reconnecting-client.js';
import { commandData, type CommandsOf, type EventsOf, integerField } from '../schema.js';

// Tic-tac-toe, the small game the tests play to prove the engine knows no game.

export const TICTACTOE_COMMANDS = {
  'ttt.move': commandData({ cell: integerField('must be a whole number from 0 to 8', 0, 8) }),
};

const mark = z.enum(['X', 'O']);
const seat = z.object({ id: z.string(), name: z.string(), mark, connected: z.boolean() });

export const TICTACTOE_EVENTS = {
  'ttt.state': z.object({
    code: z.string(),
    phase: z.enum(['waiting', 'playing', 'finished', 'closed']),
    board: z.array(z.enum(['X', 'O', ''])),
    turn: mark,
    moveBy: z.number().nullable(),
    winner: z.enum(['X', 'O', 'draw']).nullable(),
    seats: z.array(seat),
    /** Your mark; null for a spectator. */
    you: mark.nullable(),
  }),
  'ttt.joined': z.object({ seat, moveBy: z.number().optional() }),
  'ttt.moved': z.object({ cell: z.number(), mark }),
  'ttt.finished': z.object({ winner: z.enum(['X', 'O', 'draw']) }),
  'ttt.presence': z.object({ id: z.string(), connected: z.boolean() }),
};

export type TicTacToeCommands = CommandsOf<typeof TICTACTOE_COMMANDS>;
export type TicTacToeEvents = EventsOf<typeof TICTACTOE_EVENTS>;

/** A seat's connection to a tictactoe room: `send` and `on` take only this game's types and shapes. */
export type TicTacToeClient = ReconnectingClient<TicTacToeEvents, TicTacToeCommands>;
