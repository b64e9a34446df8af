import { z } from 'zod';
import { decimalField, jsonObject, printableField, readBody } from '@app/protocol';
import { GameModule } from '@app/room-engine';
import { openBoard, publicView, ticTacToeRules, TicTacToeState, tttError } from './tictactoe.rules';
import { TICTACTOE_WIRE_CODES } from './tictactoe.wire';

/** What opening a board takes: the opener's name and the clock of each move. */
const TICTACTOE_SETTINGS = jsonObject({ name: printableField(32), moveSeconds: decimalField(0.2, 600).default(30) });

/** Tic-tac-toe as a server registers it: everything the server needs of the game, in one object. */
export const ticTacToe: GameModule<TicTacToeState> = {
  kind: ticTacToeRules.kind,
  rules: ticTacToeRules,
  codes: TICTACTOE_WIRE_CODES,
  opening: {
    settings: (body) => readBody(TICTACTOE_SETTINGS, body),
    schema: TICTACTOE_SETTINGS,
    openerRole: 'player',
    state: (ids, settings: { name: string; moveSeconds: number }) => openBoard(ids.code, { id: ids.opener, name: settings.name }, settings.moveSeconds),
  },
  joinProposal: 'join',
  publicSummary: publicView,
  schemas: { summary: z.object({ game: z.literal('tictactoe') }).loose().meta({ description: 'a tic-tac-toe board: both seats, every mark, whose turn' }) },
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
