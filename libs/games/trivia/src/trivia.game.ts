import { CloseCode, isPlainObject, RoomErrorCode, RoomException } from '@app/protocol';
import { GameRules, Outcome, RoomSummary, unchanged } from '@app/room-engine';
import { parseTriviaCommand, RoomCommand, TRIVIA_COMMAND_TYPES, TRIVIA_EVENT_TYPES } from './trivia.commands';
import { viewRoom } from './trivia.projection';
import { decide, join, nextDeadline, onDeadline, resumed, roomClosed, setPresence, shiftClocks } from './trivia.rules';
import { TriviaState } from './trivia.types';

/** Trivia on the room engine: the rules of PROTOCOL.md section 3, nothing else. */
export const triviaRules: GameRules<TriviaState, RoomCommand> = {
  kind: 'trivia',
  commandTypes: TRIVIA_COMMAND_TYPES,
  eventTypes: TRIVIA_EVENT_TYPES,
  stateEvent: 'room.state',
  parseCommand: parseTriviaCommand,
  decide,

  onSignal(state, signal, ctx): Outcome<TriviaState> {
    switch (signal.kind) {
      case 'deadline':
        return onDeadline(state, ctx.now, ctx.id);
      case 'presence':
        return setPresence(state, signal.seat, signal.connected, ctx.now);
      case 'closed':
        return roomClosed(state, signal.reason);
      case 'resumed':
        return unchanged(resumed(state));
    }
  },

  proposals: {
    /** A seat by name (`POST /api/rooms/{code}/players`): `{ playerId, name }`, as the server made them. */
    join(state, args: unknown) {
      if (!isPlainObject(args) || typeof args.playerId !== 'string' || typeof args.name !== 'string') {
        throw new RoomException(RoomErrorCode.BadData, 'a join takes { playerId, name } as strings');
      }
      return join(state, args.playerId, args.name);
    },
  },

  nextDeadline,
  shiftClocks,
  batchKey: (command) => (command.type === 'room.answer' ? 'answer' : command.type === 'room.rematch' ? 'vote' : null),

  mayPassivate(state) {
    const rematchOpen = state.phase === 'finished' && state.rematch && !state.rematch.decided;
    return state.phase !== 'question' && state.phase !== 'reveal' && !rematchOpen;
  },
  isOver: (state) => state.phase === 'closed',

  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'room closed' };
    if (viewer.role === 'player' && !state.players.some((p) => p.id === viewer.seat)) {
      return { closeCode: CloseCode.seatGone, reason: 'seat left or was kicked' };
    }
    return null;
  },

  view: viewRoom,

  // The deck's copy is kept once with the room (rooms.deck), not at every game's end.
  snapshotOf: ({ deck: _deck, ...kept }) => kept,

  summarize(state): RoomSummary {
    const game = state.game;
    return {
      code: state.code,
      phase: state.phase,
      seats: state.players.length,
      seatsConnected: state.players.filter((p) => p.connected).length,
      round: game && (state.phase === 'question' || state.phase === 'reveal') ? game.index : null,
    };
  },
};
