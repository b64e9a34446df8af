import type { z } from 'zod';
import { printable, RoomErrorCode } from '@app/protocol';
import { Actor, refuse, RoomEvent, RuleContext, Step, unchanged } from '@app/room-engine';
import { BOARD, SEAT } from './tictactoe.wire';

// The rules of tic-tac-toe, as pure functions of the state. tictactoe.game.ts says what the game is.

export type Seat = z.infer<typeof SEAT>;
export type Mark = Seat['mark'];
export type Board = z.infer<typeof BOARD>;
/**
 * The room's state. It holds the board everyone sees, the length of a seat's move clock, and the
 * cells in the order they were taken.
 */
export type TicTacToeState = Board & { readonly moveSeconds: number; readonly moves: readonly number[] };

// The eight lines of three cells, given by their cells' numbers: the rows, the columns and the diagonals.
const LINES = ['012', '345', '678', '036', '147', '258', '048', '246'].map((line) => [...line].map(Number));

export function openBoard(code: string, first: { id: string; name: string }, moveSeconds: number): TicTacToeState {
  const seats: Seat[] = [{ ...first, mark: 'X', connected: false }];
  return { code, phase: 'waiting', moveSeconds, seats, board: Array(9).fill(''), turn: 'X', moveBy: null, winner: null, moves: [] };
}

/** Seats the second player by name (over HTTP). The game then starts, with X to move. */
export function join(state: TicTacToeState, args: { playerId: string; name: string }, ctx: { now: number }): Step<TicTacToeState> {
  if (state.phase !== 'waiting') refuse('board_full', 'both seats are taken');
  const seat: Seat = { id: args.playerId, name: printable(args.name, 'name', 32), mark: 'O', connected: false };
  const next: TicTacToeState = { ...state, phase: 'playing', seats: [...state.seats, seat], moveBy: ctx.now + state.moveSeconds * 1000 };
  return { state: next, events: [{ type: 'ttt.joined', data: { seat, moveBy: next.moveBy } }], reply: { playerId: seat.id } };
}

export function move(state: TicTacToeState, actor: Actor, cell: number, now: number): Step<TicTacToeState> {
  const seat = state.seats.find((s) => s.id === actor.seat);
  if (!seat) refuse(RoomErrorCode.SeatGone, 'this seat is not at the board');
  if (state.phase !== 'playing') refuse('not_playing', `no game is being played (phase is ${state.phase})`);
  if (seat.mark !== state.turn || (state.moveBy !== null && now > state.moveBy)) refuse('not_your_turn', `it is ${state.turn}'s turn`);
  if (state.board[cell] !== '') refuse('cell_taken', `cell ${cell} is taken`);
  const board = state.board.map((c, i) => (i === cell ? seat.mark : c));
  const moves = [...state.moves, cell];
  const moved: RoomEvent = { type: 'ttt.moved', data: { cell, mark: seat.mark } };
  const won = LINES.some((l) => l.every((i) => board[i] === seat.mark));
  if (won || moves.length === 9) return finish({ ...state, board, moves }, won ? seat.mark : 'draw', [moved], now);
  const turn: Mark = seat.mark === 'X' ? 'O' : 'X';
  const moveBy = now + state.moveSeconds * 1000;
  return { state: { ...state, board, moves, turn, moveBy }, events: [{ ...moved, data: { cell, mark: seat.mark, turn, moveBy } }] };
}

/** Ends the game when the seat to move has run out of time. The other seat wins. */
export function onDeadline(state: TicTacToeState, ctx: RuleContext): Step<TicTacToeState> {
  if (state.phase !== 'playing' || state.moveBy === null || ctx.now < state.moveBy) return unchanged(state);
  return finish(state, state.turn === 'X' ? 'O' : 'X', [], ctx.now);
}

function finish(state: TicTacToeState, winner: Mark | 'draw', events: RoomEvent[], now: number): Step<TicTacToeState> {
  const finished = { no: 1, summary: { code: state.code, winner, finishedAt: now, players: state.seats, moves: state.moves } };
  const ended: RoomEvent = { type: 'ttt.finished', data: { winner } };
  return { state: { ...state, phase: 'finished', moveBy: null, winner }, events: [...events, ended], boundary: true, finished };
}

/** What anyone may see. That is the whole board, because nothing in this game is secret. */
export const publicView = ({ moveSeconds: _clock, moves: _moves, ...board }: TicTacToeState): Board => board;
