import { Actor } from '@app/room-engine';
import { givenIn } from './trivia.kinds';
import { answerOf, lateStartIn, openQuestionOf, publicSeat } from './trivia.rules';
import { Settings, TriviaState } from './trivia.types';

/**
 * Shows the whole room as one viewer may see it (`room.state`). Before a question closes, nobody,
 * the host included, sees its right answer or another player's answer. A player sees their own
 * answer under `you`. Spectators see no answer at all before the reveal, and nobody but the player
 * who typed it ever sees a typed answer here.
 */
export function viewRoom(state: TriviaState, viewer: Actor, now: number): Record<string, unknown> {
  const { game } = state;
  const playerId = viewer.role === 'player' ? viewer.seat : undefined;
  const own = playerId && game ? answerOf(game, playerId) : undefined;
  const view: Record<string, unknown> = {
    code: state.code,
    phase: state.phase,
    you: {
      role: viewer.role,
      ...(playerId ? { playerId } : {}),
      ...(own && state.phase === 'question' ? { answer: { question: own.question, ...givenIn(own) } } : {}),
      ...(playerId && state.rematch?.votes[playerId] !== undefined ? { rematchVote: state.rematch.votes[playerId] } : {}),
    },
    host: { name: state.hostName },
    players: state.players.map((seat) => withLateStart(publicSeat(seat), lateStartOf(state, seat.id))),
    settings: publicSettings(state.settings),
    serverTime: now,
  };
  if (game && state.phase === 'question') {
    const q = game.questions[game.index];
    view.question = {
      ...openQuestionOf(game, q),
      closesAt: game.closesAt,
      answered: game.answers.length,
      of: game.roster.length,
    };
  }
  if (game && state.phase === 'reveal' && game.lastReveal) {
    view.reveal = { ...game.lastReveal, total: game.questions.length, nextAt: game.revealEndsAt };
  }
  if (state.phase === 'finished' && state.standings) {
    view.standings = state.standings;
    if (state.resultsId) view.resultsId = state.resultsId;
    if (state.rematch) {
      view.rematch = {
        closesAt: state.rematch.closesAt,
        voted: Object.keys(state.rematch.votes).length,
        of: state.rematch.voters.length,
        ...(state.rematch.decided ? { decided: state.rematch.decided } : {}),
      };
    }
  }
  return view;
}

/** Shows the room as anyone may see it without a seat (`GET /api/rooms/{code}`). It shows no question text. */
export function publicSummary(state: TriviaState): Record<string, unknown> {
  const game = state.game;
  return {
    code: state.code,
    phase: state.phase,
    host: { name: state.hostName },
    players: state.players.map(publicSeat),
    settings: publicSettings(state.settings),
    ...(game && (state.phase === 'question' || state.phase === 'reveal')
      ? { question: { index: game.index, total: game.questions.length } }
      : {}),
  };
}

/** The settings a client is shown. The clock's internals (the rematch window, the expiry) stay inside. */
function publicSettings(settings: Settings): Record<string, unknown> {
  return {
    deckId: settings.deckId,
    questionCount: settings.questionCount,
    secondsPerQuestion: settings.secondsPerQuestion,
    revealSeconds: settings.revealSeconds,
    maxPlayers: settings.maxPlayers,
    minPlayers: settings.minPlayers,
    // Section 13's settings are shown only when they are not the default, so that the room looks as a
    // room opened before those settings existed.
    ...(settings.pace === 'host' ? { pace: 'host' } : {}),
    ...(settings.order === 'deck' ? { order: 'deck' } : {}),
    ...(settings.lateJoin === false ? { lateJoin: false } : {}),
  };
}

/**
 * The first question a late arrival of the running game can answer, or undefined for a player who
 * plays it from the start (and outside a game). The phone reads it to tell a late arrival that the
 * question on screen is not theirs.
 */
function lateStartOf(state: TriviaState, playerId: string): number | undefined {
  const { game } = state;
  return game && (state.phase === 'question' || state.phase === 'reveal') ? lateStartIn(game, playerId) : undefined;
}

function withLateStart<T extends object>(seat: T, from: number | undefined): T | (T & { from: number }) {
  return from === undefined ? seat : { ...seat, from };
}
