import { decimal, printable } from '@app/protocol';
import { GameModule } from '@app/room-engine';
import { openBoard, publicView, ticTacToeRules, TicTacToeState, tttError } from './tictactoe.rules';

/** Tic-tac-toe as a server registers it: everything the server needs of the game, in one object. */
export const ticTacToe: GameModule<TicTacToeState> = {
  kind: ticTacToeRules.kind,
  rules: ticTacToeRules,
  codes: {
    kind: 'tictactoe',
    stateEvent: 'ttt.state',
    events: { 'ttt.state': { code: 0 }, 'ttt.joined': { code: 1 }, 'ttt.moved': { code: 2 }, 'ttt.finished': { code: 3 }, 'ttt.presence': { code: 4 } },
    keys: ['code', 'phase', 'board', 'turn', 'moveBy', 'winner', 'seats', 'id', 'name', 'mark', 'connected', 'you', 'seat', 'cell'],
    enums: { phase: ['waiting', 'playing', 'finished', 'closed'], mark: ['X', 'O'], turn: ['X', 'O'] },
    ids: ['id'],
  },
  opening: {
    settings: (body) => ({ name: printable(body.name, 'name', 32), moveSeconds: decimal(body.moveSeconds, 'moveSeconds', 0.2, 600, 30) }),
    schema: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 32 }, moveSeconds: { type: 'number', minimum: 0.2, maximum: 600, default: 30 } },
    },
    openerRole: 'player',
    state: (ids, settings: { name: string; moveSeconds: number }) => openBoard(ids.code, { id: ids.opener, name: settings.name }, settings.moveSeconds),
  },
  joinProposal: 'join',
  publicSummary: publicView,
  schemas: { summary: { type: 'object', description: 'a tic-tac-toe board: both seats, every mark, whose turn', properties: { game: { type: 'string', enum: ['tictactoe'] } } } },
  operatorDetail: (state) => ({ board: state.board, moves: state.moves.length }),
  // No host: the board is its two seats'. A draw has no winner.
  finishedRecord: (summary: { winner: string; players: { name: string; mark: string }[] }) => ({
    hostName: null,
    players: summary.players.map((p) => p.name),
    winner: summary.players.find((p) => p.mark === summary.winner)?.name ?? null,
  }),
  seatName: (state, seat) => state.seats.find((s) => s.id === seat)?.name,
  // Either seat may close its board.
  mayClose: (state, actor) => state.seats.some((s) => s.id === actor.seat),
  error: tttError,
};
