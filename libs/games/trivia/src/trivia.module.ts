import { RoomErrorCode, RoomException } from '@app/protocol';
import { GameModule, GameOpening } from '@app/room-engine';
import { TRIVIA_WIRE_CODES } from './trivia.wire';
import { TriviaErrorCode, triviaError } from './trivia.errors';
import { triviaRules } from './trivia.game';
import { publicSummary } from './trivia.projection';
import { Answer, Game, TriviaState } from './trivia.types';
import { openTrivia, roomDeck } from './trivia.opening';
import { finishedRecordOf, RESULTS_CSV_HEADER, resultsCsvRows, resultsOf } from './trivia.results';
import { roomSettings, TRIVIA_SETTINGS, TriviaSettings, triviaSettings } from './trivia.settings';
import { TRIVIA_SUMMARY } from './trivia.summary';

/** A room opens with its host and a copy of its deck: the host's seat is its opener's. */
const opening: GameOpening<TriviaState, TriviaSettings> = {
  settings: (body) => triviaSettings(body),
  schema: TRIVIA_SETTINGS,
  openerRole: 'host',
  deckOf: (settings) => settings.deckId,
  state(ids, settings, opened) {
    const deck = opened.deck!;
    if (deck.items.length < settings.questionCount) {
      throw new RoomException(RoomErrorCode.BadData, `questionCount: the deck has only ${deck.items.length} questions, fewer than the ${settings.questionCount} asked for`);
    }
    return openTrivia({
      roomId: ids.roomId,
      code: ids.code,
      hostName: settings.hostName,
      settings: roomSettings(settings, deck.id, opened.expirySeconds),
      deck: deck.items,
      openedAt: opened.at,
    });
  },
};

/** Trivia as the server registers it (PROTOCOL.md sections 2 and 3). */
export const trivia: GameModule<TriviaState> = {
  kind: triviaRules.kind,
  rules: triviaRules,
  codes: TRIVIA_WIRE_CODES,
  opening,
  results: { json: resultsOf, csvHeader: RESULTS_CSV_HEADER, csvRows: resultsCsvRows },
  finishedRecord: finishedRecordOf,
  seatName: (state, seat) => state.players.find((p) => p.id === seat)?.name,
  publicSummary,
  schemas: { summary: TRIVIA_SUMMARY },
  operatorDetail(state) {
    const game = state.game;
    const q = game && state.phase === 'question' ? game.questions[game.index] : undefined;
    return {
      players: state.players.map((p) => ({ id: p.id, name: p.name, connected: p.connected, score: p.score })),
      hostName: state.hostName,
      openQuestion: q && game ? { index: game.index, total: game.questions.length, text: q.text, closesAt: game.closesAt } : null,
    };
  },
  mayClose: (_state, actor) => actor.role === 'host',
  // A snapshot leaves the deck out (triviaRules.snapshotOf): it comes back from the room's copy.
  fromSnapshot: (json, opened) => ({ ...withAnswerList(json as Omit<TriviaState, 'deck'>), deck: roomDeck(opened.deck ?? []) }),
  error: (code, message) => triviaError(code as TriviaErrorCode, message),
  joinProposal: 'join',
};

/** A snapshot from before `Game.answers` was a list held them by player id, in the order they came. */
function withAnswerList<S extends { readonly game?: Game }>(state: S): S {
  const answers: unknown = state.game?.answers;
  if (!state.game || Array.isArray(answers)) return state;
  return { ...state, game: { ...state.game, answers: Object.values(answers as Record<string, Answer>) } };
}
