import { clip, CloseCode, CommandFrame, printable, Role, RoomErrorCode, RoomException, Status, validData } from '@app/protocol';
import { TICTACTOE_COMMANDS, TICTACTOE_EVENTS } from './tictactoe.wire';
import { Actor, GameRules, Outcome, RoomEvent, unchanged } from '@app/room-engine';

// Tic-tac-toe for two seats with a move clock: the smallest game that uses everything a game
// can (a seat that opens it, a seat that joins by name, commands, a deadline, a finished game's
// report), to prove that a game is one folder. It is served only by a server started for tests.

export type Mark = 'X' | 'O';
export type Cell = Mark | '';

export interface Seat {
  readonly id: string;
  readonly name: string;
  readonly mark: Mark;
  readonly connected: boolean;
}

export interface TicTacToeState {
  readonly code: string;
  readonly phase: 'waiting' | 'playing' | 'finished' | 'closed';
  readonly moveSeconds: number;
  readonly seats: readonly Seat[];
  readonly board: readonly Cell[];
  readonly turn: Mark;
  /** When the seat to move loses on time. */
  readonly moveBy?: number;
  readonly winner?: Mark | 'draw';
  /** Cells in the order they were taken. */
  readonly moves: readonly number[];
}

export type TicTacToeCommand = { readonly id: string; readonly type: 'ttt.move'; readonly data: { readonly cell: number } };

export const TTT_EVENT_TYPES = Object.keys(TICTACTOE_EVENTS);

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

export function openBoard(code: string, first: { id: string; name: string }, moveSeconds: number): TicTacToeState {
  return { code, phase: 'waiting', moveSeconds, seats: [{ ...first, mark: 'X', connected: false }], board: Array(9).fill(''), turn: 'X', moves: [] };
}

/** The game's refusals: the state does not allow the move now (409). */
export function tttError(code: string, message: string): RoomException {
  return new RoomException(code, message, { status: Status.conflict });
}

function refuse(code: string, message: string): never {
  throw tttError(code, message);
}

/** The second seat, by name (over HTTP): the game starts, X to move. */
export function join(state: TicTacToeState, args: { playerId: string; name: string }, ctx: { now: number }): Outcome<TicTacToeState> {
  if (state.phase !== 'waiting') refuse('board_full', 'both seats are taken');
  const seat: Seat = { id: args.playerId, name: printable(args.name, 'name', 32), mark: 'O', connected: false };
  const next: TicTacToeState = { ...state, phase: 'playing', seats: [...state.seats, seat], moveBy: ctx.now + state.moveSeconds * 1000 };
  return { state: next, events: [{ type: 'ttt.joined', data: { seat: publicSeat(seat), moveBy: next.moveBy } }], effects: [], reply: { playerId: seat.id } };
}

function move(state: TicTacToeState, actor: Actor, cell: number, now: number): Outcome<TicTacToeState> {
  const seat = state.seats.find((s) => s.id === actor.seat);
  if (!seat) throw new RoomException(RoomErrorCode.SeatGone, 'this seat is not at the board');
  if (state.phase !== 'playing') refuse('not_playing', `no game is being played (phase is ${state.phase})`);
  if (seat.mark !== state.turn || (state.moveBy !== undefined && now > state.moveBy)) refuse('not_your_turn', `it is ${state.turn}'s turn`);
  if (state.board[cell] !== '') refuse('cell_taken', `cell ${cell} is taken`);
  const board = state.board.map((c, i) => (i === cell ? seat.mark : c));
  const moves = [...state.moves, cell];
  const moved: RoomEvent = { type: 'ttt.moved', data: { cell, mark: seat.mark } };
  const won = LINES.find((l) => l.every((i) => board[i] === seat.mark));
  if (won || moves.length === 9) return finish({ ...state, board, moves }, won ? seat.mark : 'draw', [moved], now);
  const turn: Mark = seat.mark === 'X' ? 'O' : 'X';
  const moveBy = now + state.moveSeconds * 1000;
  return { state: { ...state, board, moves, turn, moveBy }, events: [{ ...moved, data: { cell, mark: seat.mark, turn, moveBy } }], effects: [], reply: {} };
}

function finish(state: TicTacToeState, winner: Mark | 'draw', events: RoomEvent[], now: number): Outcome<TicTacToeState> {
  const { moveBy: _clock, ...rest } = state;
  const next: TicTacToeState = { ...rest, phase: 'finished', winner };
  const summary = { code: state.code, winner, finishedAt: now, players: state.seats.map(publicSeat), moves: state.moves };
  return { state: next, events: [...events, { type: 'ttt.finished', data: { winner } }], effects: [], reply: {}, boundary: true, finished: { no: 1, summary } };
}

function publicSeat(seat: Seat) {
  return { id: seat.id, name: seat.name, mark: seat.mark, connected: seat.connected };
}

export const ticTacToeRules: GameRules<TicTacToeState, TicTacToeCommand> = {
  kind: 'tictactoe',
  commandTypes: ['ttt.move'],
  eventTypes: TTT_EVENT_TYPES,
  stateEvent: 'ttt.state',
  parseCommand(frame: CommandFrame, role: Role): TicTacToeCommand {
    if (frame.type !== 'ttt.move') throw new RoomException(RoomErrorCode.UnknownType, `unknown command type '${clip(frame.type)}'`);
    if (role !== 'player') throw new RoomException(RoomErrorCode.Forbidden, `a ${role} may not send ${frame.type}`);
    return { id: frame.id, type: 'ttt.move', data: validData(TICTACTOE_COMMANDS['ttt.move'], frame) };
  },
  decide: (state, actor, command, ctx) => move(state, actor, command.data.cell, ctx.now),
  onSignal(state, signal, ctx) {
    switch (signal.kind) {
      case 'deadline': {
        // The seat to move ran out of time: the other seat wins.
        if (state.phase !== 'playing' || state.moveBy === undefined || ctx.now < state.moveBy) return unchanged(state);
        return { ...finish(state, state.turn === 'X' ? 'O' : 'X', [], ctx.now), reply: undefined };
      }
      case 'presence': {
        const seats = state.seats.map((s) => (s.id === signal.seat ? { ...s, connected: signal.connected } : s));
        if (!state.seats.some((s) => s.id === signal.seat && s.connected !== signal.connected)) return unchanged(state);
        return { state: { ...state, seats }, events: [{ type: 'ttt.presence', data: { id: signal.seat, connected: signal.connected } }], effects: [] };
      }
      case 'resumed':
        return state.seats.some((s) => s.connected) ? unchanged({ ...state, seats: state.seats.map((s) => ({ ...s, connected: false })) }) : unchanged(state);
      case 'closed':
        return state.phase === 'closed' ? unchanged(state) : { state: { ...state, phase: 'closed' }, events: [], effects: [{ kind: 'close', reason: signal.reason }] };
    }
  },
  proposals: { join },
  nextDeadline: (state) => (state.phase === 'playing' ? state.moveBy : undefined),
  // The seat to move keeps its whole clock when the room's writes failed for `ms`.
  shiftClocks: (state, ms) => (state.phase === 'playing' && state.moveBy !== undefined ? { ...state, moveBy: state.moveBy + ms } : state),
  batchKey: () => null,
  mayPassivate: (state) => state.phase !== 'playing',
  isOver: (state) => state.phase === 'closed',
  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'room closed' };
    if (viewer.role === 'player' && !state.seats.some((s) => s.id === viewer.seat)) return { closeCode: CloseCode.seatGone, reason: 'not a seat at this board' };
    return null;
  },
  view: (state, viewer) => ({ ...publicView(state), you: state.seats.find((s) => s.id === viewer.seat)?.mark ?? null }),
  summarize: (state) => ({
    code: state.code,
    phase: state.phase,
    seats: state.seats.length,
    seatsConnected: state.seats.filter((s) => s.connected).length,
    round: state.phase === 'playing' ? state.moves.length : null,
  }),
};

/** What anyone may see: the whole board (nothing in this game is secret). */
export function publicView(state: TicTacToeState): Record<string, unknown> {
  return {
    code: state.code,
    phase: state.phase,
    board: state.board,
    turn: state.turn,
    moveBy: state.moveBy ?? null,
    winner: state.winner ?? null,
    seats: state.seats.map(publicSeat),
  };
}
