import type { z } from 'zod';
import { printable, RoomErrorCode, RoomException } from '@app/protocol';
import { Actor, Outcome, refuse, RoomEvent, RuleContext, unchanged } from '@app/room-engine';
import { SEAT } from './tictactoe.wire';

// The rules of tic-tac-toe (tictactoe.game.ts says what the game is): pure functions of the state.

export type Seat = z.infer<typeof SEAT>;
export type Mark = Seat['mark'];

export interface TicTacToeState {
  readonly code: string;
  readonly phase: 'waiting' | 'playing' | 'finished' | 'closed';
  readonly moveSeconds: number;
  readonly seats: readonly Seat[];
  readonly board: readonly (Mark | '')[];
  readonly turn: Mark;
  /** When the seat to move loses on time. */
  readonly moveBy?: number;
  readonly winner?: Mark | 'draw';
  /** Cells in the order they were taken. */
  readonly moves: readonly number[];
}

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

export function openBoard(code: string, first: { id: string; name: string }, moveSeconds: number): TicTacToeState {
  return {
    code,
    phase: 'waiting',
    moveSeconds,
    seats: [{ ...first, mark: 'X', connected: false }],
    board: Array(9).fill(''),
    turn: 'X',
    moves: [],
  };
}

/** The second seat, by name (over HTTP): the game starts, X to move. */
export function join(state: TicTacToeState, args: { playerId: string; name: string }, ctx: { now: number }): Outcome<TicTacToeState> {
  if (state.phase !== 'waiting') refuse('board_full', 'both seats are taken');
  const seat: Seat = { id: args.playerId, name: printable(args.name, 'name', 32), mark: 'O', connected: false };
  const next: TicTacToeState = { ...state, phase: 'playing', seats: [...state.seats, seat], moveBy: ctx.now + state.moveSeconds * 1000 };
  return { state: next, events: [{ type: 'ttt.joined', data: { seat, moveBy: next.moveBy } }], effects: [], reply: { playerId: seat.id } };
}

export function move(state: TicTacToeState, actor: Actor, cell: number, now: number): Outcome<TicTacToeState> {
  const seat = state.seats.find((s) => s.id === actor.seat);
  if (!seat) throw new RoomException(RoomErrorCode.SeatGone, 'this seat is not at the board');
  if (state.phase !== 'playing') refuse('not_playing', `no game is being played (phase is ${state.phase})`);
  if (seat.mark !== state.turn || (state.moveBy !== undefined && now > state.moveBy)) refuse('not_your_turn', `it is ${state.turn}'s turn`);
  if (state.board[cell] !== '') refuse('cell_taken', `cell ${cell} is taken`);
  const board = state.board.map((c, i) => (i === cell ? seat.mark : c));
  const moves = [...state.moves, cell];
  const moved: RoomEvent = { type: 'ttt.moved', data: { cell, mark: seat.mark } };
  const won = LINES.some((l) => l.every((i) => board[i] === seat.mark));
  if (won || moves.length === 9) return finish({ ...state, board, moves }, won ? seat.mark : 'draw', [moved], now);
  const turn: Mark = seat.mark === 'X' ? 'O' : 'X';
  const moveBy = now + state.moveSeconds * 1000;
  return {
    state: { ...state, board, moves, turn, moveBy },
    events: [{ ...moved, data: { cell, mark: seat.mark, turn, moveBy } }],
    effects: [],
    reply: {},
  };
}

/** The seat to move ran out of time: the other seat wins. */
export function onDeadline(state: TicTacToeState, ctx: RuleContext): Outcome<TicTacToeState> {
  if (state.phase !== 'playing' || state.moveBy === undefined || ctx.now < state.moveBy) return unchanged(state);
  return { ...finish(state, state.turn === 'X' ? 'O' : 'X', [], ctx.now), reply: undefined };
}

function finish(state: TicTacToeState, winner: Mark | 'draw', events: RoomEvent[], now: number): Outcome<TicTacToeState> {
  const { moveBy: _clock, ...rest } = state;
  const summary = { code: state.code, winner, finishedAt: now, players: state.seats, moves: state.moves };
  const finished: RoomEvent = { type: 'ttt.finished', data: { winner } };
  return {
    state: { ...rest, phase: 'finished', winner },
    events: [...events, finished],
    effects: [],
    reply: {},
    boundary: true,
    finished: { no: 1, summary },
  };
}

/** What anyone may see: the whole board (nothing in this game is secret). */
export function publicView({ code, phase, board, turn, moveBy, winner, seats }: TicTacToeState): Record<string, unknown> {
  return { code, phase, board, turn, moveBy: moveBy ?? null, winner: winner ?? null, seats };
}
