import { decimalField, jsonObject, printableField } from '@app/protocol';
import { defineGame } from '@app/room-engine';
import { TICTACTOE_WIRE } from './tictactoe.wire';
import { join, move, onDeadline, openBoard, publicView } from './tictactoe.rules';

/**
 * Tic-tac-toe for two seats with a move clock. It is the smallest game that uses everything a game
 * can use (a seat that opens the room, a seat that joins by name, a command, a deadline, a finished
 * game's report), and it exists to prove that a game is one folder. Only a server started for
 * tests serves it.
 */
export const ticTacToe = defineGame({
  wire: TICTACTOE_WIRE,
  settings: jsonObject({ name: printableField(32), moveSeconds: decimalField(0.2, 600).default(30) }),
  setup: (settings, opened) => openBoard(opened.code, { id: opened.opener, name: settings.name }, settings.moveSeconds),
  commands: { 'ttt.move': { roles: ['player'], decide: (state, { cell }, ctx) => move(state, ctx.actor, cell, ctx.now) } },
  view: (state, viewer) => ({ ...publicView(state), you: state.seats.find((s) => s.id === viewer.seat)?.mark ?? null }),
  describe: publicView,
  proposals: { join },
  // The seat to move loses when `moveBy` passes. An outage moves `moveBy` on.
  clocks: ['moveBy'],
  onDeadline,
  round: (state) => (state.phase === 'playing' ? state.moves.length : null),
  operatorDetail: (state) => ({ board: state.board, moves: state.moves.length }),
  // The board has no host, because it belongs to its two seats. A draw has no winner.
  finishedRecord: ({ winner, players }: { winner: string; players: { name: string; mark: string }[] }) => ({
    hostName: null,
    players: players.map((p) => p.name),
    winner: players.find((p) => p.mark === winner)?.name ?? null,
  }),
});
