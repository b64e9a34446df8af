import { decide, onDeadline } from './trivia.rules';
import {
  answer as answerOf,
  asPlayer,
  ctx,
  DURATION,
  HOST,
  inQuestion as inQuestionOf,
  lobby as lobbyOf,
  SETTINGS,
  SPECTATOR,
  T0,
} from '../test/trivia.fixtures';
import { viewRoom } from './trivia.projection';
import { Actor as Viewer } from '@app/room-engine';
import { Question, Settings, TriviaState } from './trivia.types';

// This file has its own questions, because the reveal assertions below rely on their right choices.
const QUESTIONS: Question[] = [
  { id: 21, text: 'Which planet is red?', choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'], correct: 1 },
  { id: 22, text: 'Which is a prime?', choices: ['4', '6', '7'], correct: 2 },
];
const SHORT_GAME: Partial<Settings> = { questionCount: 2, maxPlayers: 8 };

const lobby = (n: number): TriviaState => lobbyOf(n, SHORT_GAME);
const inQuestion = (n: number): TriviaState => inQuestionOf(n, SHORT_GAME, QUESTIONS);
const answer = (state: TriviaState, playerId: string, question: number, choice: number, now: number): TriviaState =>
  answerOf(state, playerId, question, choice, now).state;

/** Every value found under a key named `key`, anywhere in `value`. */
function valuesUnder(value: unknown, key: string): unknown[] {
  const found: unknown[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (k === key) found.push(inner);
        walk(inner);
      }
    }
  };
  walk(value);
  return found;
}

/** p1 answered right (choice 1), p2 answered wrong (choice 3), and p3 has not answered, so question 0 is still open. */
function midQuestion(): TriviaState {
  let state = inQuestion(3);
  state = answer(state, 'p1', 0, 1, T0 + 1000);
  state = answer(state, 'p2', 0, 3, T0 + 2000);
  expect(state.phase).toBe('question');
  return state;
}

const VIEWERS: [string, Viewer][] = [
  ['the host', HOST],
  ['a spectator', SPECTATOR],
  ['the player who answered right', asPlayer('p1')],
  ['the player who answered wrong', asPlayer('p2')],
  ['the player who has not answered', asPlayer('p3')],
];

describe(viewRoom.name, () => {
  describe('during a question', () => {
    it.each(VIEWERS)('shows %s no "correct" key anywhere', (_who, viewer) => {
      const view = viewRoom(midQuestion(), viewer, T0 + 3000);
      expect(valuesUnder(view, 'correct')).toEqual([]);
      expect(JSON.stringify(view)).not.toContain('"correct"');
    });

    it.each(VIEWERS)('shows %s the open question without its right choice', (_who, viewer) => {
      const view = viewRoom(midQuestion(), viewer, T0 + 3000);
      expect(view.question).toEqual({
        index: 0,
        total: 2,
        text: 'Which planet is red?',
        choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
        closesAt: T0 + DURATION,
        answered: 2,
        of: 3,
      });
      expect(JSON.stringify(view.question)).not.toContain('correct');
      expect(view).not.toHaveProperty('reveal');
    });

    it('shows the host no choice of anyone', () => {
      const view = viewRoom(midQuestion(), HOST, T0 + 3000);
      expect(view).not.toHaveProperty('correct');
      expect(valuesUnder(view, 'choice')).toEqual([]);
      expect(valuesUnder(view, 'answer')).toEqual([]);
      expect(view.you).toEqual({ role: 'host' });
    });

    it('shows a spectator no choice at all', () => {
      const view = viewRoom(midQuestion(), SPECTATOR, T0 + 3000);
      expect(valuesUnder(view, 'choice')).toEqual([]);
      expect(valuesUnder(view, 'answer')).toEqual([]);
      expect(view.you).toEqual({ role: 'spectator' });
    });

    it('shows a player its own choice only under you.answer', () => {
      const view = viewRoom(midQuestion(), asPlayer('p1'), T0 + 3000);
      expect(view.you).toEqual({ role: 'player', playerId: 'p1', answer: { question: 0, choice: 1 } });
      // The only choice anywhere in the view is the one under `you`.
      expect(valuesUnder(view, 'choice')).toEqual([1]);
      const { you: _you, ...rest } = view;
      expect(valuesUnder(rest, 'choice')).toEqual([]);
    });

    it("never shows a player another player's choice", () => {
      const p1 = viewRoom(midQuestion(), asPlayer('p1'), T0 + 3000);
      expect(valuesUnder(p1, 'choice')).not.toContain(3);
      expect(JSON.stringify(p1)).not.toContain('"choice":3');

      const p2 = viewRoom(midQuestion(), asPlayer('p2'), T0 + 3000);
      expect(valuesUnder(p2, 'choice')).toEqual([3]);
      expect(JSON.stringify(p2)).not.toContain('"choice":1');
    });

    it('shows a player who has not answered no choice at all', () => {
      const view = viewRoom(midQuestion(), asPlayer('p3'), T0 + 3000);
      expect(valuesUnder(view, 'choice')).toEqual([]);
      expect(view.you).toEqual({ role: 'player', playerId: 'p3' });
    });

    it('does not reveal the previous question while the next one is open', () => {
      let state = midQuestion();
      state = answer(state, 'p3', 0, 0, T0 + 3000);
      expect(state.phase).toBe('reveal');
      state = onDeadline(state, state.game!.revealEndsAt!).state;
      expect(state.phase).toBe('question');
      expect(state.game!.index).toBe(1);
      state = answer(state, 'p1', 1, 0, state.game!.openedAt + 500);
      for (const [, viewer] of VIEWERS) {
        const view = viewRoom(state, viewer, state.game!.openedAt + 1000);
        expect(valuesUnder(view, 'correct')).toEqual([]);
        expect(view).not.toHaveProperty('reveal');
        expect(valuesUnder(view, 'counts')).toEqual([]);
        const choices = valuesUnder(view, 'choice');
        expect(choices).toEqual(viewer.seat === 'p1' ? [0] : []);
      }
    });

    it("does not show scores changing before the reveal (another player's right answer stays hidden)", () => {
      const view = viewRoom(midQuestion(), asPlayer('p2'), T0 + 3000);
      expect((view.players as { score: number }[]).map((p) => p.score)).toEqual([0, 0, 0]);
    });
  });

  describe('during the reveal', () => {
    function revealing(): TriviaState {
      const state = onDeadline(midQuestion(), T0 + DURATION).state;
      expect(state.phase).toBe('reveal');
      return state;
    }

    it.each(VIEWERS)('shows %s the reveal with the right choice, counts and scores', (_who, viewer) => {
      const view = viewRoom(revealing(), viewer, T0 + DURATION + 1);
      expect(view.reveal).toEqual({
        index: 0,
        correct: 1,
        counts: [0, 1, 0, 1],
        scores: [
          { playerId: 'p1', points: 975, total: 975 },
          { playerId: 'p2', points: 0, total: 0 },
          { playerId: 'p3', points: 0, total: 0 },
        ],
        total: 2,
        nextAt: T0 + DURATION + SETTINGS.revealSeconds * 1000,
      });
      expect(view).not.toHaveProperty('question');
    });

    it('shows the new totals in the players list', () => {
      const view = viewRoom(revealing(), SPECTATOR, T0 + DURATION + 1);
      expect(view.players).toEqual([
        { id: 'p1', name: 'Name p1', connected: true, score: 975 },
        { id: 'p2', name: 'Name p2', connected: true, score: 0 },
        { id: 'p3', name: 'Name p3', connected: true, score: 0 },
      ]);
    });
  });

  describe('the room around the game', () => {
    it('shows code, phase, host, players, settings and serverTime in the lobby', () => {
      const view = viewRoom(lobby(2), asPlayer('p2'), T0 + 7);
      expect(view).toEqual({
        code: 'ABCDEF',
        phase: 'lobby',
        you: { role: 'player', playerId: 'p2' },
        host: { name: 'Quizmaster' },
        players: [
          { id: 'p1', name: 'Name p1', connected: true, score: 0 },
          { id: 'p2', name: 'Name p2', connected: true, score: 0 },
        ],
        settings: { deckId: 'deck-1', questionCount: 2, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 8, minPlayers: 2 },
        serverTime: T0 + 7,
      });
    });

    it('shows standings and the open rematch after the game, with only the viewer its own vote', () => {
      let state = midQuestion();
      state = answer(state, 'p3', 0, 1, T0 + 3000);
      state = onDeadline(state, state.game!.revealEndsAt!).state;
      for (const id of ['p1', 'p2', 'p3']) state = answer(state, id, 1, 2, state.game!.openedAt + 1000);
      const finishedAt = state.game!.revealEndsAt!;
      state = onDeadline(state, finishedAt).state;
      expect(state.phase).toBe('finished');
      state = decide(state, asPlayer('p1'), { id: 'v1', type: 'room.rematch', data: { vote: true } }, ctx(finishedAt + 1)).state;

      const p1 = viewRoom(state, asPlayer('p1'), finishedAt + 2);
      expect(p1.standings).toEqual(state.standings);
      expect(p1.rematch).toEqual({ closesAt: finishedAt + SETTINGS.rematchSeconds * 1000, voted: 1, of: 3 });
      expect((p1.you as Record<string, unknown>).rematchVote).toBe(true);

      const p2 = viewRoom(state, asPlayer('p2'), finishedAt + 2);
      expect(p2.you).toEqual({ role: 'player', playerId: 'p2' });
      expect(valuesUnder(viewRoom(state, HOST, finishedAt + 2), 'rematchVote')).toEqual([]);
    });
  });
});
