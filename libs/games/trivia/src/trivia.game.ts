import { CloseCode, isPlainObject, Role, RoomErrorCode, RoomException } from '@app/protocol';
import { CommandDefinition, defineGame } from '@app/room-engine';
import { TRIVIA_WIRE } from './trivia.wire';
import { RoomCommand, TriviaCommandData, TriviaCommandType } from './trivia.commands';
import { TriviaErrorCode, triviaError } from './trivia.errors';
import { DECK_QUESTION, DeckQuestion, openTrivia, roomDeck } from './trivia.opening';
import { publicSummary, viewRoom } from './trivia.projection';
import { finishedRecordOf, RESULTS_CSV_HEADER, resultsCsvRows, resultsOf } from './trivia.results';
import { decide, join, nextDeadline, onDeadline, resumed, roomClosed, setPresence, shiftClocks } from './trivia.rules';
import { roomSettings, settingsOf, TRIVIA_SETTINGS } from './trivia.settings';
import { TRIVIA_SUMMARY } from './trivia.summary';
import { Answer, Game, TriviaState } from './trivia.types';

/** Declares one command: who may send it, and the rules' decision on it. Its schema comes from the wire. */
function command<T extends TriviaCommandType>(type: T, roles: readonly Role[]): CommandDefinition<TriviaState, TriviaCommandData[T]> {
  return { roles, decide: (state, data, ctx) => decide(state, ctx.actor, { id: ctx.commandId, type, data } as RoomCommand, ctx) };
}

/** Trivia as a game of the room engine, with the rules of PROTOCOL.md sections 2, 3 and 13. */
export const triviaGame = defineGame({
  wire: TRIVIA_WIRE,
  settings: TRIVIA_SETTINGS,
  settingsOf,
  openerRole: 'host',
  // A room opens with its host and a copy of its deck. The opener gets the host's seat.
  deck: { item: DECK_QUESTION, of: (settings) => settings.deckId },
  setup(settings, opened) {
    const deck = opened.deck!;
    if (deck.items.length < settings.questionCount) {
      throw new RoomException(
        RoomErrorCode.BadData,
        `questionCount: the deck has only ${deck.items.length} questions, fewer than the ${settings.questionCount} asked for`,
      );
    }
    const items = deck.items as readonly DeckQuestion[];
    return openTrivia({
      roomId: opened.roomId,
      code: opened.code,
      hostName: settings.hostName,
      settings: roomSettings(settings, deck.id, opened.expirySeconds),
      deck: items,
      openedAt: opened.at,
    });
  },
  commands: {
    'room.start': command('room.start', ['host']),
    'room.answer': command('room.answer', ['player']),
    'room.rematch': command('room.rematch', ['player']),
    'room.leave': command('room.leave', ['player']),
    'room.kick': command('room.kick', ['host']),
    'room.next': command('room.next', ['host']),
  },
  view: viewRoom,
  describe: publicSummary,
  summarySchema: TRIVIA_SUMMARY,
  operatorDetail(state) {
    const game = state.game;
    const q = game && state.phase === 'question' ? game.questions[game.index] : undefined;
    return {
      players: state.players.map((p) => ({ id: p.id, name: p.name, connected: p.connected, score: p.score })),
      hostName: state.hostName,
      openQuestion: q && game ? { index: game.index, total: game.questions.length, text: q.text, closesAt: game.closesAt } : null,
    };
  },
  round: (state) => (state.game && (state.phase === 'question' || state.phase === 'reveal') ? state.game.index : null),

  nextDeadline,
  onDeadline: (state, ctx) => onDeadline(state, ctx.now, ctx.id),
  shiftClocks,

  seats: (state) => state.players,
  onPresence: (state, seat, connected, ctx) => setPresence(state, seat, connected, ctx.now),
  onResumed: resumed,
  onClosed: roomClosed,
  admit(state, viewer) {
    if (state.phase === 'closed') return { closeCode: CloseCode.roomClosed, reason: 'room closed' };
    if (viewer.role === 'player' && !state.players.some((p) => p.id === viewer.seat))
      return { closeCode: CloseCode.seatGone, reason: 'seat left or was kicked' };
    return null;
  },

  proposals: {
    /** Seats a player by name (`POST /api/rooms/{code}/players`) with `{ playerId, name }`, as the server made them. */
    join(state, args: unknown) {
      if (!isPlainObject(args) || typeof args.playerId !== 'string' || typeof args.name !== 'string') {
        throw new RoomException(RoomErrorCode.BadData, 'a join takes { playerId, name } as strings');
      }
      return join(state, args.playerId, args.name);
    },
  },
  results: { json: resultsOf, csvHeader: RESULTS_CSV_HEADER, csvRows: resultsCsvRows },
  finishedRecord: finishedRecordOf,
  error: (code, message) => triviaError(code as TriviaErrorCode, message),

  // Answers to the same question that wait together are decided together, and so are rematch votes.
  batchKey: (command) => (command.type === 'room.answer' ? 'answer' : command.type === 'room.rematch' ? 'vote' : null),
  mayPassivate(state) {
    const rematchOpen = state.phase === 'finished' && state.rematch && !state.rematch.decided;
    // A host-paced reveal waits for the host with no clock running, so nothing is due while nobody
    // watches.
    const waitingForHost = state.phase === 'reveal' && state.game?.revealEndsAt === undefined;
    return (state.phase !== 'question' && state.phase !== 'reveal' && !rematchOpen) || waitingForHost;
  },
  // The deck's copy is kept once with the room (rooms.deck), not in the snapshot at every game's end.
  // On restore, it comes back from the room's copy.
  snapshotOf: ({ deck: _deck, ...kept }) => kept,
  fromSnapshot: (json, opened) => ({
    ...withAnswerList(json as Omit<TriviaState, 'deck'>),
    deck: roomDeck((opened.deck ?? []) as readonly DeckQuestion[]),
  }),
});

/** Trivia's rules in the form the engine drives them. */
export const triviaRules = triviaGame.rules;

/**
 * Converts an old snapshot to the current form. Before `Game.answers` was a list, a snapshot held the
 * answers by player id, in the order they came.
 */
function withAnswerList<S extends { readonly game?: Game }>(state: S): S {
  const answers: unknown = state.game?.answers;
  if (!state.game || Array.isArray(answers)) return state;
  return { ...state, game: { ...state.game, answers: Object.values(answers as Record<string, Answer>) } };
}
