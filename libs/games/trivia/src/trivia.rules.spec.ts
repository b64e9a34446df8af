import { RoomErrorCode, RoomException } from '@app/protocol';
import { RoomCommand } from './trivia.commands';
import { TriviaErrorCode } from './trivia.errors';
import { triviaRules } from './trivia.game';
import { decideRematch } from './trivia.rematch';
import { answerOf as answerIn, decide, join, nextDeadline, onDeadline, roomClosed, setPresence, shiftClocks } from './trivia.rules';
import { pointsFor, rankStandings } from './trivia.scoring';
import { GameSummary, Outcome, QuestionClosed, Settings, TriviaState } from './trivia.types';

import {
  answer,
  ctx,
  DURATION,
  HOST,
  inQuestion,
  kick,
  leave,
  lobby,
  QUESTIONS,
  seat,
  SETTINGS,
  startCommand,
  startGame,
  T0,
  vote,
} from '../test/trivia.fixtures';

const batchKindOf = (command: RoomCommand) => triviaRules.batchKey(command);

function refusal(fn: () => unknown): { code: string; status: number } {
  try {
    fn();
  } catch (err) {
    if (err instanceof RoomException) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('expected a RoomException, but the rule accepted');
}

function eventTypes(outcome: Outcome): string[] {
  return outcome.events.map((e) => e.type);
}

/** What the engine reads of an outcome besides state and events. Absent flags are left out. */
function flagsOf(outcome: Outcome): Record<string, unknown> {
  const { durable, boundary, finished } = outcome;
  return { ...(durable ? { durable } : {}), ...(boundary ? { boundary } : {}), ...(finished ? { finished } : {}) };
}

function eventData<T = any>(outcome: Outcome, type: string): T {
  const event = outcome.events.find((e) => e.type === type);
  if (!event) throw new Error(`no ${type} event among ${eventTypes(outcome).join(', ')}`);
  return event.data as T;
}

/** The answer the outcome's state holds for `playerId` under the open question. */
function answerOf(outcome: Outcome, playerId: string) {
  const a = answerIn(outcome.state.game!, playerId);
  if (!a) throw new Error(`no answer of ${playerId}`);
  return a;
}

/**
 * Plays every question of the running game. For each question, the players answer as `choose`
 * says, 1 s apart from the question's opening (undefined means no answer). Then the question closes
 * (early or at its deadline), and the reveal ends. Returns the outcome of the last step (the one
 * that finishes the game) and its time.
 */
function playToEnd(state: TriviaState, choose: (playerId: string, index: number) => number | undefined): { outcome: Outcome; now: number } {
  let current = state;
  let outcome: Outcome | undefined;
  let now = current.game!.openedAt;
  while (current.phase === 'question') {
    const game = current.game!;
    let k = 0;
    for (const id of game.roster) {
      const choice = choose(id, game.index);
      if (choice === undefined) continue;
      k++;
      now = game.openedAt + k * 1000;
      current = answer(current, id, game.index, choice, now).state;
    }
    if (current.phase === 'question') {
      now = game.closesAt;
      current = onDeadline(current, now).state;
    }
    now = current.game!.revealEndsAt!;
    outcome = onDeadline(current, now);
    current = outcome.state;
  }
  return { outcome: outcome!, now };
}

/** A finished 3-question game for `n` players, everyone right on every question. */
function finishedGame(n = 3, settings: Partial<Settings> = {}): { state: TriviaState; outcome: Outcome; now: number } {
  const { outcome, now } = playToEnd(inQuestion(n, settings), (_id, i) => QUESTIONS[i].correct);
  return { state: outcome.state, outcome, now };
}

describe('trivia rules', () => {
  describe('scoring', () => {
    describe(pointsFor.name, () => {
      it('gives 1000 at the instant the question opens', () => {
        expect(pointsFor(0, DURATION)).toBe(1000);
      });

      it('gives 500 at the deadline', () => {
        expect(pointsFor(DURATION, DURATION)).toBe(500);
      });

      it('gives 750 at half time and 875 at a quarter', () => {
        expect(pointsFor(DURATION / 2, DURATION)).toBe(750);
        expect(pointsFor(DURATION / 4, DURATION)).toBe(875);
      });

      it('rounds to a whole number', () => {
        // 1000 * (1 - 1/3/2) = 833.33...
        expect(pointsFor(1, 3)).toBe(833);
        // 1000 * (1 - 1/6/2) = 916.66...
        expect(pointsFor(1, 6)).toBe(917);
      });

      it('clamps an elapsed time below 0 to 1000', () => {
        expect(pointsFor(-5000, DURATION)).toBe(1000);
      });

      it('clamps an elapsed time past the duration to 500', () => {
        expect(pointsFor(DURATION * 3, DURATION)).toBe(500);
      });
    });

    describe(rankStandings.name, () => {
      it('orders by score, highest first', () => {
        const standings = rankStandings([seat('a', { score: 100 }), seat('b', { score: 300 }), seat('c', { score: 200 })]);
        expect(standings.map((s) => s.playerId)).toEqual(['b', 'c', 'a']);
        expect(standings.map((s) => s.rank)).toEqual([1, 2, 3]);
      });

      it('breaks a score tie by the smaller elapsed sum', () => {
        const standings = rankStandings([seat('slow', { score: 900, elapsedSum: 8000 }), seat('fast', { score: 900, elapsedSum: 2000 })]);
        expect(standings.map((s) => s.playerId)).toEqual(['fast', 'slow']);
        expect(standings.map((s) => s.rank)).toEqual([1, 2]);
      });

      it('gives exact ties the same rank and skips the next (1, 2, 2, 4)', () => {
        const standings = rankStandings([
          seat('d', { score: 500, elapsedSum: 100 }),
          seat('b', { score: 800, elapsedSum: 3000 }),
          seat('a', { score: 1000, elapsedSum: 1000 }),
          seat('c', { score: 800, elapsedSum: 3000 }),
        ]);
        expect(standings.map((s) => s.rank)).toEqual([1, 2, 2, 4]);
        expect(standings[0].playerId).toBe('a');
        expect(
          standings
            .slice(1, 3)
            .map((s) => s.playerId)
            .sort(),
        ).toEqual(['b', 'c']);
        expect(standings[3].playerId).toBe('d');
      });

      it('does not share a rank when the score ties but the elapsed sums differ', () => {
        const standings = rankStandings([seat('a', { score: 800, elapsedSum: 1 }), seat('b', { score: 800, elapsedSum: 2 })]);
        expect(standings.map((s) => s.rank)).toEqual([1, 2]);
      });

      it('carries id, name, score and correct count into each standing', () => {
        const [standing] = rankStandings([seat('a', { name: 'Ann', score: 1750, correct: 2, elapsedSum: 4000 })]);
        expect(standing).toEqual({ playerId: 'a', name: 'Ann', score: 1750, correct: 2, rank: 1 });
      });

      it('does not reorder the seats it was given', () => {
        const seats = [seat('a', { score: 1 }), seat('b', { score: 2 })];
        rankStandings(seats);
        expect(seats.map((s) => s.id)).toEqual(['a', 'b']);
      });
    });
  });

  describe('start', () => {
    it('draws the game from the deck and opens its first question in the same outcome', () => {
      const state = { ...lobby(3), gamesPlayed: 2, playedQuestionIds: [4, 5] };
      const outcome = decide(state, HOST, startCommand(), ctx(T0));
      const game = outcome.state.game!;
      expect(outcome.state.phase).toBe('question');
      expect(game).toMatchObject({
        id: 'room-1:3',
        no: 3,
        startedAt: T0,
        roster: ['p1', 'p2', 'p3'],
        index: 0,
        openedAt: T0,
        closesAt: T0 + DURATION,
        answers: {},
        closed: [],
      });
      expect(game.questions.map((q) => q.id).sort()).toEqual([11, 12, 13]);
      expect(outcome.state.gamesPlayed).toBe(3);
      expect(eventTypes(outcome)).toEqual(['question.open']);
      expect(eventData(outcome, 'question.open')).toMatchObject({
        index: 0,
        total: 3,
        text: game.questions[0].text,
        closesAt: T0 + DURATION,
        serverTime: T0,
      });
      expect(outcome.effects).toEqual([]);
      expect(outcome.reply).toEqual({});
      expect(flagsOf(outcome)).toEqual({});
    });

    it('allows a solo game', () => {
      const outcome = decide(lobby(1), HOST, startCommand(), ctx(T0));
      expect(outcome.state.phase).toBe('question');
      expect(outcome.state.game!.roster).toEqual(['p1']);
    });

    it('draws no more questions than the deck has', () => {
      const outcome = decide({ ...lobby(2), deck: QUESTIONS.slice(0, 2) }, HOST, startCommand(), ctx(T0));
      expect(outcome.state.game!.questions).toHaveLength(2);
      expect(eventData(outcome, 'question.open')).toMatchObject({ total: 2 });
    });

    it('refuses with deck_not_found when the room has no questions', () => {
      const state = { ...lobby(2), deck: [] };
      expect(refusal(() => decide(state, HOST, startCommand(), ctx(T0)))).toEqual({ code: TriviaErrorCode.DeckNotFound, status: 404 });
    });

    it('refuses with 409 no_players when nobody has joined', () => {
      expect(refusal(() => decide(lobby(0), HOST, startCommand(), ctx(T0)))).toEqual({ code: TriviaErrorCode.NoPlayers, status: 409 });
    });

    it('refuses with 409 wrong_phase during a question', () => {
      expect(refusal(() => decide(inQuestion(2), HOST, startCommand(), ctx(T0 + 1)))).toEqual({
        code: TriviaErrorCode.WrongPhase,
        status: 409,
      });
    });

    it('refuses with 409 wrong_phase after the game finished', () => {
      const { state, now } = finishedGame(3);
      expect(refusal(() => decide(state, HOST, startCommand(), ctx(now)))).toEqual({ code: TriviaErrorCode.WrongPhase, status: 409 });
    });

    it('refuses with 409 wrong_phase in a closed room', () => {
      const closed = roomClosed(lobby(2), 'host').state;
      expect(refusal(() => decide(closed, HOST, startCommand(), ctx(T0)))).toEqual({ code: TriviaErrorCode.WrongPhase, status: 409 });
    });
  });

  describe('a game begins', () => {
    it('opens question 0 with index, total, text, choices, closesAt and serverTime', () => {
      const now = T0 + 1234;
      const outcome = startGame(lobby(2), now);
      expect(eventTypes(outcome)).toEqual(['question.open']);
      expect(outcome.events[0].data).toEqual({
        index: 0,
        total: 3,
        text: 'Capital of France?',
        choices: ['Berlin', 'Paris', 'Rome', 'Madrid'],
        closesAt: now + SETTINGS.secondsPerQuestion * 1000,
        serverTime: now,
      });
    });

    it('never puts the right choice into question.open', () => {
      const outcome = startGame(lobby(2));
      expect(outcome.events[0].data).not.toHaveProperty('correct');
      expect(JSON.stringify(outcome.events)).not.toContain('correct');
    });

    it('moves to the question phase with a game id of the room and the game number', () => {
      const outcome = startGame(lobby(2));
      expect(flagsOf(outcome)).toEqual({});
      expect(outcome.state.phase).toBe('question');
      expect(outcome.state.game).toMatchObject({ id: 'room-1:1', no: 1, index: 0, openedAt: T0, closesAt: T0 + DURATION, answers: [] });
      expect(outcome.state.gamesPlayed).toBe(1);
      expect(outcome.state.playedQuestionIds).toEqual([11, 12, 13]);
    });

    it('resets the scores of the previous game', () => {
      const state = { ...lobby(2), players: [seat('p1', { score: 900, correct: 1, elapsedSum: 300 }), seat('p2', { score: 10 })] };
      const outcome = startGame(state);
      expect(outcome.state.players.map((p) => [p.score, p.correct, p.elapsedSum])).toEqual([
        [0, 0, 0],
        [0, 0, 0],
      ]);
    });

    it('drops roster ids that no longer have a seat', () => {
      const outcome = startGame(lobby(2), T0, ['p1', 'p2', 'gone']);
      expect(outcome.state.game!.roster).toEqual(['p1', 'p2']);
    });

    it('uses secondsPerQuestion for the deadline, fractions included', () => {
      const outcome = startGame(lobby(1, { secondsPerQuestion: 0.5 }), T0);
      expect((outcome.events[0].data as { closesAt: number }).closesAt).toBe(T0 + 500);
    });
  });

  describe('answer', () => {
    it('scores a right answer by the time from the open to the now passed in', () => {
      const state = inQuestion(3);
      const outcome = answer(state, 'p1', 0, 1, T0 + 5000, 'c-1');
      expect(outcome.state.game!.answers).toEqual([
        { playerId: 'p1', question: 0, choice: 1, elapsedMs: 5000, points: 875, correct: true },
      ]);
      expect(flagsOf(outcome)).toEqual({});
    });

    it('gives a later right answer fewer points', () => {
      const state = inQuestion(3);
      expect(answerOf(answer(state, 'p1', 0, 1, T0 + 2000), 'p1').points).toBe(950);
      expect(answerOf(answer(state, 'p1', 0, 1, T0 + 10_000), 'p1').points).toBe(750);
    });

    it('measures from the question open, not from the game start', () => {
      // Question 1 opens at the reveal's end, and an answer 2 s after that is worth 950.
      let state = inQuestion(1);
      state = onDeadline(state, T0 + DURATION).state;
      const opensAt = state.game!.revealEndsAt!;
      state = onDeadline(state, opensAt).state;
      expect(state.game!.index).toBe(1);
      expect(answerOf(answer(state, 'p1', 1, QUESTIONS[1].correct, opensAt + 2000), 'p1')).toMatchObject({ elapsedMs: 2000, points: 950 });
    });

    it('accepts an answer exactly at the deadline with 500 points', () => {
      expect(answerOf(answer(inQuestion(3), 'p1', 0, 1, T0 + DURATION), 'p1')).toMatchObject({
        elapsedMs: DURATION,
        points: 500,
        correct: true,
      });
    });

    it('scores a wrong answer 0', () => {
      expect(answerOf(answer(inQuestion(3), 'p1', 0, 3, T0 + 1000), 'p1')).toMatchObject({ choice: 3, correct: false, points: 0 });
    });

    it('replies {accepted: true} whether the answer is right or wrong', () => {
      const state = inQuestion(3);
      expect(answer(state, 'p1', 0, 1, T0 + 1000).reply).toEqual({ accepted: true });
      expect(answer(state, 'p1', 0, 2, T0 + 1000).reply).toEqual({ accepted: true });
    });

    it('emits question.progress with only index, answered and of', () => {
      let state = inQuestion(3);
      const first = answer(state, 'p1', 0, 1, T0 + 1000);
      expect(first.events).toEqual([{ type: 'question.progress', data: { index: 0, answered: 1, of: 3 } }]);
      state = first.state;
      const second = answer(state, 'p2', 0, 0, T0 + 2000);
      expect(second.events).toEqual([{ type: 'question.progress', data: { index: 0, answered: 2, of: 3 } }]);
    });

    it('keeps each accepted answer under its player until the question closes', () => {
      let state = inQuestion(3);
      for (const [i, id] of ['p1', 'p2'].entries()) {
        const outcome = answer(state, id, 0, i, T0 + 1000 * (i + 1));
        expect(outcome.state.game!.answers.map((a) => a.playerId)).toEqual(['p1', 'p2'].slice(0, i + 1));
        expect(answerOf(outcome, id)).toMatchObject({ playerId: id, choice: i });
        state = outcome.state;
      }
    });

    it('does not add the points to the totals before the question closes', () => {
      const outcome = answer(inQuestion(3), 'p1', 0, 1, T0 + 1000);
      expect(outcome.state.players.find((p) => p.id === 'p1')!.score).toBe(0);
    });

    it('refuses a second answer with 409 already_answered', () => {
      const state = answer(inQuestion(3), 'p1', 0, 1, T0 + 1000).state;
      expect(refusal(() => answer(state, 'p1', 0, 2, T0 + 2000, 'other-id'))).toEqual({
        code: TriviaErrorCode.AlreadyAnswered,
        status: 409,
      });
    });

    it('refuses an answer to another question than the open one with 409 question_closed', () => {
      const state = inQuestion(3);
      expect(refusal(() => answer(state, 'p1', 1, 0, T0 + 1000))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
    });

    it('refuses an answer in the lobby with 409 question_closed', () => {
      expect(refusal(() => answer(lobby(3), 'p1', 0, 0, T0))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
    });

    it('refuses an answer that arrives after closesAt with 409 question_closed, even before the deadline fired', () => {
      const state = inQuestion(3);
      expect(state.phase).toBe('question');
      expect(refusal(() => answer(state, 'p1', 0, 1, T0 + DURATION + 1))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
    });

    it('refuses an answer during the reveal with 409 question_closed', () => {
      const state = onDeadline(inQuestion(3), T0 + DURATION).state;
      expect(state.phase).toBe('reveal');
      expect(refusal(() => answer(state, 'p1', 0, 1, T0 + DURATION + 10))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
    });

    it('refuses a choice past the last one with 400 choice_out_of_range', () => {
      const state = inQuestion(3);
      expect(refusal(() => answer(state, 'p1', 0, 4, T0 + 1000))).toEqual({ code: TriviaErrorCode.ChoiceOutOfRange, status: 400 });
    });

    it('checks the range against the open question (3 choices on question 1)', () => {
      let state = onDeadline(inQuestion(3), T0 + DURATION).state;
      const at = state.game!.revealEndsAt!;
      state = onDeadline(state, at).state;
      expect(refusal(() => answer(state, 'p1', 1, 3, at + 1))).toEqual({ code: TriviaErrorCode.ChoiceOutOfRange, status: 400 });
      expect(answer(state, 'p1', 1, 2, at + 1).reply).toEqual({ accepted: true });
    });

    it('gives the 409 already_answered before the 400 out of range', () => {
      const state = answer(inQuestion(3), 'p1', 0, 1, T0 + 1000).state;
      expect(refusal(() => answer(state, 'p1', 0, 99, T0 + 2000, 'again'))).toEqual({ code: TriviaErrorCode.AlreadyAnswered, status: 409 });
    });

    it('gives the 409 question_closed before the 400 out of range', () => {
      const state = inQuestion(3);
      expect(refusal(() => answer(state, 'p1', 2, 99, T0 + 1000))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
      expect(refusal(() => answer(state, 'p1', 0, 99, T0 + DURATION + 1))).toEqual({ code: TriviaErrorCode.QuestionClosed, status: 409 });
    });

    it('refuses a seated player who is not in the game with 409 not_in_game', () => {
      const state = startGame(lobby(3), T0, ['p1', 'p2']).state;
      expect(state.game!.roster).toEqual(['p1', 'p2']);
      expect(refusal(() => answer(state, 'p3', 0, 1, T0 + 1000))).toEqual({ code: TriviaErrorCode.NotInGame, status: 409 });
    });

    it('refuses a seat that has left with 409', () => {
      const state = leave(inQuestion(3), 'p2', T0 + 500).state;
      const refused = refusal(() => answer(state, 'p2', 0, 1, T0 + 1000));
      expect(refused.status).toBe(409);
    });
  });

  describe('early close', () => {
    it('closes in the same outcome once every connected player answered', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      state = answer(state, 'p2', 0, 2, T0 + 2000).state;
      const last = answer(state, 'p3', 0, 1, T0 + 3000);
      expect(eventTypes(last)).toEqual(['question.progress', 'question.closed']);
      expect(last.state.phase).toBe('reveal');
      expect(last.state.game!.revealEndsAt).toBe(T0 + 3000 + SETTINGS.revealSeconds * 1000);
      // A command is journaled before anyone hears of it anyway, so the close needs no flag.
      expect(flagsOf(last)).toEqual({});
      expect(last.reply).toEqual({ accepted: true });
    });

    it('does not close while a connected player has not answered', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      const second = answer(state, 'p2', 0, 1, T0 + 2000);
      expect(eventTypes(second)).toEqual(['question.progress']);
      expect(second.state.phase).toBe('question');
    });

    it('does not wait for a player who is disconnected', () => {
      let state = inQuestion(3);
      state = setPresence(state, 'p3', false, T0 + 100).state;
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      const second = answer(state, 'p2', 0, 0, T0 + 2000);
      expect(second.state.phase).toBe('reveal');
      expect(eventTypes(second)).toContain('question.closed');
    });

    it('closes when the last player who has not answered disconnects', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      state = answer(state, 'p2', 0, 1, T0 + 2000).state;
      const gone = setPresence(state, 'p3', false, T0 + 3000);
      expect(eventTypes(gone)).toEqual(['player.presence', 'question.closed']);
      expect(gone.events[0].data).toEqual({ playerId: 'p3', connected: false });
      expect(gone.state.phase).toBe('reveal');
      // Who was connected decided the close, so the close is durable before anyone hears of it.
      expect(flagsOf(gone)).toEqual({ durable: true });
      // The non-answerer still has an entry, with 0 points.
      expect(eventData<QuestionClosed>(gone, 'question.closed').scores.find((s) => s.playerId === 'p3')).toEqual({
        playerId: 'p3',
        points: 0,
        total: 0,
      });
    });

    it('does not close when a player who has not answered disconnects while another still has to answer', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      const gone = setPresence(state, 'p3', false, T0 + 2000);
      expect(eventTypes(gone)).toEqual(['player.presence']);
      expect(gone.state.phase).toBe('question');
      // A presence change that decides nothing needs no statement of its own.
      expect(flagsOf(gone)).toEqual({});
    });

    it('does not close when everyone disconnects and nobody answered', () => {
      let state = inQuestion(3);
      for (const id of ['p1', 'p2', 'p3']) {
        const outcome = setPresence(state, id, false, T0 + 1000);
        expect(eventTypes(outcome)).toEqual(['player.presence']);
        state = outcome.state;
      }
      expect(state.phase).toBe('question');
      expect(state.players.every((p) => !p.connected)).toBe(true);
    });

    it('ignores a presence that does not change anything', () => {
      const state = inQuestion(2);
      const same = setPresence(state, 'p1', true, T0 + 1);
      expect(same.events).toEqual([]);
      expect(same.state).toBe(state);
      expect(setPresence(state, 'nobody', false, T0 + 1).events).toEqual([]);
    });

    it('reports index, correct, counts per choice and a score for every player in the game', () => {
      let state = inQuestion(4);
      state = answer(state, 'p1', 0, 1, T0 + 5000).state; // right, 875
      state = answer(state, 'p2', 0, 1, T0 + 10_000).state; // right, 750
      state = answer(state, 'p3', 0, 2, T0 + 1000).state; // wrong
      // p4 does not answer, so the question closes at its deadline.
      expect(state.phase).toBe('question');
      const closed = onDeadline(state, T0 + DURATION);
      expect(eventTypes(closed)).toEqual(['question.closed']);
      expect(eventData<QuestionClosed>(closed, 'question.closed')).toEqual({
        index: 0,
        correct: 1,
        counts: [0, 2, 1, 0],
        scores: [
          { playerId: 'p1', points: 875, total: 875 },
          { playerId: 'p2', points: 750, total: 750 },
          { playerId: 'p3', points: 0, total: 0 },
          { playerId: 'p4', points: 0, total: 0 },
        ],
      });
    });

    it('adds points to the totals, correct counts and elapsed sums at the close', () => {
      let state = inQuestion(2);
      state = answer(state, 'p1', 0, 1, T0 + 5000).state;
      state = answer(state, 'p2', 0, 0, T0 + 6000).state;
      expect(state.phase).toBe('reveal');
      expect(state.players.find((p) => p.id === 'p1')).toMatchObject({ score: 875, correct: 1, elapsedSum: 5000 });
      // A wrong answer's time is not part of the tie-breaker.
      expect(state.players.find((p) => p.id === 'p2')).toMatchObject({ score: 0, correct: 0, elapsedSum: 0 });
    });

    it('accumulates totals across questions', () => {
      let state = inQuestion(1);
      state = answer(state, 'p1', 0, 1, T0 + 5000).state; // 875, closes early
      const opensAt = state.game!.revealEndsAt!;
      state = onDeadline(state, opensAt).state;
      const closed = answer(state, 'p1', 1, 2, opensAt + 10_000); // 750
      expect(eventData<QuestionClosed>(closed, 'question.closed').scores).toEqual([{ playerId: 'p1', points: 750, total: 1625 }]);
    });
  });

  describe('deadlines', () => {
    it('does nothing before the question closes', () => {
      const state = inQuestion(2);
      const outcome = onDeadline(state, T0 + DURATION - 1);
      expect(outcome.events).toEqual([]);
      expect(outcome.state).toBe(state);
    });

    it('closes the question at closesAt', () => {
      const outcome = onDeadline(inQuestion(2), T0 + DURATION);
      expect(eventTypes(outcome)).toEqual(['question.closed']);
      expect(flagsOf(outcome)).toEqual({});
      expect(outcome.state.phase).toBe('reveal');
      expect(outcome.state.game!.revealEndsAt).toBe(T0 + DURATION + SETTINGS.revealSeconds * 1000);
    });

    it('opens the next question when the reveal ends, writing nothing', () => {
      const revealing = onDeadline(inQuestion(2), T0 + DURATION).state;
      const endsAt = revealing.game!.revealEndsAt!;
      expect(onDeadline(revealing, endsAt - 1).events).toEqual([]);
      const outcome = onDeadline(revealing, endsAt);
      expect(flagsOf(outcome)).toEqual({});
      expect(outcome.state.phase).toBe('question');
      expect(outcome.state.game).toMatchObject({ index: 1, openedAt: endsAt, closesAt: endsAt + DURATION, answers: [] });
      expect(outcome.events).toEqual([
        {
          type: 'question.open',
          data: { index: 1, total: 3, text: '2 + 2?', choices: ['3', '5', '4'], closesAt: endsAt + DURATION, serverTime: endsAt },
        },
      ]);
    });

    it('lets a player answer the next question after answering the previous one', () => {
      let state = inQuestion(2);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      state = onDeadline(state, T0 + DURATION).state;
      state = onDeadline(state, state.game!.revealEndsAt!).state;
      expect(answer(state, 'p1', 1, 2, state.game!.openedAt + 1).reply).toEqual({ accepted: true });
    });

    it('finishes the game after the last reveal at a boundary, reporting the game, then game.finished and rematch.open', () => {
      const { outcome, now } = finishedGame(3);
      expect(outcome.boundary).toBe(true);
      expect(outcome.finished).toMatchObject({
        no: 1,
        summary: { code: 'ABCDEF', hostName: 'Quizmaster', no: 1, startedAt: T0, finishedAt: now },
      });
      expect(eventTypes(outcome)).toEqual(['game.finished', 'rematch.open']);
      expect(eventData(outcome, 'rematch.open')).toEqual({ closesAt: now + SETTINGS.rematchSeconds * 1000 });
      expect(outcome.state.phase).toBe('finished');
      expect(outcome.state.rematch).toMatchObject({ gameId: 'room-1:1', closesAt: now + 30_000, voters: ['p1', 'p2', 'p3'], votes: {} });
      expect(outcome.state.rematch!.decided).toBeUndefined();
      expect(eventData<{ standings: unknown[] }>(outcome, 'game.finished').standings).toEqual(
        (outcome.finished!.summary as GameSummary).standings,
      );
    });

    it('reports every question with its answers, naming a player who answered and left, in the finished game', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      state = answer(state, 'p2', 0, 0, T0 + 2000).state;
      state = answer(state, 'p3', 0, 1, T0 + 3000).state;
      state = onDeadline(state, state.game!.revealEndsAt!).state;
      state = leave(state, 'p3', state.game!.openedAt + 10).state;
      const { outcome, now } = playToEnd(state, (_id, i) => QUESTIONS[i].correct);
      const summary = outcome.finished!.summary as GameSummary;
      expect(summary.standings.map((s) => s.playerId)).toEqual(['p1', 'p2']);
      expect(summary.questions.map((q) => q.index)).toEqual([0, 1, 2]);
      expect(summary.questions[0]).toEqual({
        index: 0,
        text: 'Capital of France?',
        choices: ['Berlin', 'Paris', 'Rome', 'Madrid'],
        correct: 1,
        answers: [
          { playerId: 'p1', name: 'Name p1', choice: 1, correct: true, points: 975, elapsedMs: 1000 },
          { playerId: 'p2', name: 'Name p2', choice: 0, correct: false, points: 0, elapsedMs: 2000 },
          { playerId: 'p3', name: 'Name p3', choice: 1, correct: true, points: 925, elapsedMs: 3000 },
        ],
      });
      expect(summary.questions[1].answers.map((a) => a.playerId)).toEqual(['p1', 'p2']);
      expect(summary.finishedAt).toBe(now);
      // The summary is plain JSON, so it goes to the finished games as it is.
      expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    });

    it('ranks the final standings by score then by speed', () => {
      // p1 answers every question first (1 s), p2 answers second (2 s), and p3 is always wrong.
      const { outcome } = playToEnd(inQuestion(3), (id, i) =>
        id === 'p3' ? (QUESTIONS[i].correct + 1) % QUESTIONS[i].choices.length : QUESTIONS[i].correct,
      );
      const { standings } = eventData<{ standings: { playerId: string; rank: number; score: number; correct: number; name: string }[] }>(
        outcome,
        'game.finished',
      );
      expect(standings).toEqual([
        { playerId: 'p1', name: 'Name p1', score: 3 * 975, correct: 3, rank: 1 },
        { playerId: 'p2', name: 'Name p2', score: 3 * 950, correct: 3, rank: 2 },
        { playerId: 'p3', name: 'Name p3', score: 0, correct: 0, rank: 3 },
      ]);
      expect((outcome.finished!.summary as GameSummary).standings).toEqual(standings);
    });

    it('declines the rematch at once when a single player finishes (minPlayers 2)', () => {
      const { outcome } = finishedGame(1);
      expect(eventTypes(outcome)).toEqual(['game.finished', 'rematch.open', 'rematch.decided']);
      expect(eventData(outcome, 'rematch.decided')).toEqual({ accepted: false, playerIds: [] });
      expect(outcome.boundary).toBe(true);
      expect(outcome.finished!.no).toBe(1);
      expect(outcome.state.phase).toBe('finished');
      expect(outcome.state.rematch!.decided).toEqual({ accepted: false, playerIds: [] });
      expect(refusal(() => vote(outcome.state, 'p1', true, 1))).toEqual({ code: TriviaErrorCode.RematchClosed, status: 409 });
    });

    describe(nextDeadline.name, () => {
      it('is closesAt during a question', () => {
        expect(nextDeadline(inQuestion(2))).toBe(T0 + DURATION);
      });

      it('is revealEndsAt during the reveal', () => {
        const state = onDeadline(inQuestion(2), T0 + DURATION).state;
        expect(nextDeadline(state)).toBe(T0 + DURATION + 4000);
      });

      it('is expiresAt in the lobby', () => {
        expect(nextDeadline({ ...lobby(1), expiresAt: T0 + 42 })).toBe(T0 + 42);
      });

      it('is the rematch deadline while the vote is open', () => {
        const { state, now } = finishedGame(3);
        expect(nextDeadline(state)).toBe(now + 30_000);
        // The deadline is whichever of the rematch deadline and the expiry comes first.
        expect(nextDeadline({ ...state, expiresAt: now + 10_000 })).toBe(now + 10_000);
      });

      it('is expiresAt once the rematch is decided', () => {
        const { state, now } = finishedGame(1);
        expect(nextDeadline(state)).toBe(now + SETTINGS.expirySeconds * 1000);
      });

      it('is undefined in a closed room', () => {
        expect(nextDeadline(roomClosed(lobby(1), 'host').state)).toBeUndefined();
      });
    });

    it('closes a lobby that expired, with a room.closed event and a close effect (the engine records the close)', () => {
      const state = lobby(2);
      expect(onDeadline(state, state.expiresAt - 1).events).toEqual([]);
      const outcome = onDeadline(state, state.expiresAt);
      expect(outcome.state.phase).toBe('closed');
      expect(outcome.events).toEqual([{ type: 'room.closed', data: { reason: 'expired' } }]);
      expect(outcome.effects).toEqual([{ kind: 'close', reason: 'expired' }]);
    });

    it('closes a finished room that expired after its rematch was decided', () => {
      const { state } = finishedGame(1);
      const outcome = onDeadline(state, state.expiresAt);
      expect(outcome.state.phase).toBe('closed');
      expect(outcome.events).toEqual([{ type: 'room.closed', data: { reason: 'expired' } }]);
    });

    it('does not expire a room during a game', () => {
      const state = { ...inQuestion(2), expiresAt: T0 };
      const outcome = onDeadline(state, T0 + 1);
      expect(outcome.state.phase).toBe('question');
      expect(outcome.events).toEqual([]);
    });
  });

  describe(shiftClocks.name, () => {
    const HELD = 60_000;

    it('gives the open question its whole window again: it closes the time held later, and an answer is timed without the hold', () => {
      const before = answer(inQuestion(3), 'p1', 0, QUESTIONS[0].correct, T0 + 2000).state;
      const held = shiftClocks(before, HELD);
      expect(nextDeadline(held)).toBe(T0 + DURATION + HELD);
      expect(onDeadline(held, T0 + DURATION).state).toBe(held);
      // p2 answers two more seconds into the question after the hold, so the answer is timed at 4 s
      // in all, not 64.
      const late = answer(held, 'p2', 0, QUESTIONS[0].correct, T0 + HELD + 4000);
      expect(answerOf(late, 'p2').elapsedMs).toBe(4000);
      expect(answerOf(late, 'p1')).toEqual(answerOf({ ...late, state: before }, 'p1'));
      expect(held.game!.startedAt).toBe(T0);
    });

    it('moves the end of a reveal, and leaves the closed question as it closed', () => {
      const revealing = onDeadline(inQuestion(3), T0 + DURATION).state;
      const held = shiftClocks(revealing, HELD);
      expect(nextDeadline(held)).toBe(nextDeadline(revealing)! + HELD);
      expect({ ...held.game, revealEndsAt: 0 }).toEqual({ ...revealing.game, revealEndsAt: 0 });
    });

    it('moves the rematch vote and the expiry of a finished room, and the lobby expiry, and nothing of a closed room', () => {
      const { state } = finishedGame();
      const held = shiftClocks(state, HELD);
      expect(held.rematch!.closesAt).toBe(state.rematch!.closesAt + HELD);
      expect(held.expiresAt).toBe(state.expiresAt + HELD);
      expect(held.game).toEqual(state.game);
      expect(shiftClocks(lobby(2), HELD).expiresAt).toBe(lobby(2).expiresAt + HELD);
      const closed = roomClosed(lobby(2), 'host').state;
      expect(shiftClocks(closed, HELD)).toBe(closed);
    });
  });

  describe('rematch', () => {
    it('waits for the third voter after two yes votes', () => {
      const { state, now } = finishedGame(3);
      const first = vote(state, 'p1', true, now + 1000, 'v-1');
      expect(first.state.rematch!.votes).toEqual({ p1: true });
      expect(first.events).toEqual([]);
      expect(first.reply).toEqual({});
      const second = vote(first.state, 'p2', true, now + 2000);
      expect(second.events).toEqual([]);
      expect(second.state.phase).toBe('finished');
      expect(second.state.rematch!.decided).toBeUndefined();
      expect(second.state.rematch!.votes).toEqual({ p1: true, p2: true });
    });

    it('accepts with the two yes voters when the third says no, releasing the third', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1000).state;
      current = vote(current, 'p2', true, now + 2000).state;
      const third = vote(current, 'p3', false, now + 3000, 'v-3');
      expect(third.events[0]).toEqual({ type: 'rematch.decided', data: { accepted: true, playerIds: ['p1', 'p2'] } });
      expect(third.events.slice(1)).toEqual([{ type: 'player.left', data: { playerId: 'p3', reason: 'released' } }]);
      expect(third.effects).toEqual([{ kind: 'release', seats: ['p3'] }]);
      expect(third.resync).toBe(true);
      expect(third.state.phase).toBe('lobby');
      expect(third.state.players.map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(third.state.players.every((p) => p.score === 0 && p.correct === 0 && p.elapsedSum === 0)).toBe(true);
      expect(third.state.game).toBeUndefined();
      expect(third.state.expiresAt).toBe(now + 3000 + SETTINGS.expirySeconds * 1000);
      expect(third.state.rematch!.decided).toEqual({ accepted: true, playerIds: ['p1', 'p2'] });
      expect(flagsOf(third)).toEqual({});
    });

    it('lets the host start the next game with the yes voters after an accepted rematch', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now).state;
      current = vote(current, 'p2', true, now).state;
      current = vote(current, 'p3', false, now).state;
      const start = decide(
        { ...current, deck: [...QUESTIONS, { id: 14, text: 'Red planet?', choices: ['Venus', 'Mars'], correct: 1 }] },
        HOST,
        startCommand(),
        ctx(now + 1),
      );
      expect(start.state.game).toMatchObject({ id: 'room-1:2', no: 2, roster: ['p1', 'p2'] });
      // The one question not played yet comes first.
      expect(start.state.game!.questions[0].id).toBe(14);
    });

    it('declines with 1 yes and 2 no', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1).state;
      const firstNo = vote(current, 'p2', false, now + 2);
      // 1 yes plus 1 still to vote makes 2, so the rematch is not decided yet.
      expect(firstNo.events).toEqual([]);
      current = firstNo.state;
      const secondNo = vote(current, 'p3', false, now + 3);
      expect(secondNo.events).toEqual([{ type: 'rematch.decided', data: { accepted: false, playerIds: ['p1'] } }]);
      expect(secondNo.state.phase).toBe('finished');
      expect(secondNo.state.rematch!.decided).toEqual({ accepted: false, playerIds: ['p1'] });
      expect(secondNo.effects).toEqual([]);
      expect(secondNo.state.players).toHaveLength(3);
    });

    it('declines as soon as yes plus pending votes fall below minPlayers, before everyone voted', () => {
      const { state, now } = finishedGame(3);
      const current = vote(state, 'p1', false, now + 1).state;
      const second = vote(current, 'p2', false, now + 2);
      expect(eventTypes(second)).toEqual(['rematch.decided']);
      expect(eventData(second, 'rematch.decided')).toEqual({ accepted: false, playerIds: [] });
      expect(second.state.rematch!.votes.p3).toBeUndefined();
    });

    it('refuses a vote after a declined rematch with 409 rematch_closed', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', false, now + 1).state;
      current = vote(current, 'p2', false, now + 2).state;
      expect(refusal(() => vote(current, 'p3', true, now + 3))).toEqual({ code: TriviaErrorCode.RematchClosed, status: 409 });
    });

    it('refuses a vote after an accepted rematch with 409 rematch_closed', () => {
      // PROTOCOL.md: "It is decided the moment one of these holds [...]. A vote after that gets 409 rematch_closed."
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1).state;
      current = vote(current, 'p2', true, now + 2).state;
      current = vote(current, 'p3', false, now + 3).state;
      expect(current.phase).toBe('lobby');
      expect(refusal(() => vote(current, 'p1', true, now + 4, 'late-vote'))).toEqual({ code: TriviaErrorCode.RematchClosed, status: 409 });
    });

    it('refuses a second vote by the same player with 409 already_voted', () => {
      const { state, now } = finishedGame(3);
      const current = vote(state, 'p1', true, now + 1).state;
      expect(refusal(() => vote(current, 'p1', false, now + 2, 'v-again'))).toEqual({ code: TriviaErrorCode.AlreadyVoted, status: 409 });
    });

    it('refuses a vote when no rematch is open with 409', () => {
      expect(refusal(() => vote(lobby(3), 'p1', true, T0))).toEqual({ code: TriviaErrorCode.WrongPhase, status: 409 });
      expect(refusal(() => vote(inQuestion(3), 'p1', true, T0 + 1)).status).toBe(409);
    });

    it('does nothing before the rematch deadline', () => {
      const { state, now } = finishedGame(3);
      const current = vote(state, 'p1', true, now + 1).state;
      const outcome = onDeadline(current, current.rematch!.closesAt - 1);
      expect(outcome.events).toEqual([]);
      expect(outcome.state.rematch!.decided).toBeUndefined();
    });

    it('counts a player who has not voted by the deadline as no (accepted with the yes voters)', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1).state;
      current = vote(current, 'p2', true, now + 2).state;
      const at = current.rematch!.closesAt;
      const outcome = onDeadline(current, at);
      expect(outcome.events[0]).toEqual({ type: 'rematch.decided', data: { accepted: true, playerIds: ['p1', 'p2'] } });
      expect(outcome.effects).toEqual([{ kind: 'release', seats: ['p3'] }]);
      expect(outcome.state.phase).toBe('lobby');
      expect(outcome.state.players.map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(flagsOf(outcome)).toEqual({});
    });

    it('declines at the deadline when too few said yes', () => {
      const { state, now } = finishedGame(3);
      const current = vote(state, 'p1', true, now + 1).state;
      const outcome = onDeadline(current, current.rematch!.closesAt);
      expect(outcome.events).toEqual([{ type: 'rematch.decided', data: { accepted: false, playerIds: ['p1'] } }]);
      expect(outcome.state.phase).toBe('finished');
      expect(outcome.state.rematch!.decided).toEqual({ accepted: false, playerIds: ['p1'] });
    });

    it('counts a disconnected player like any other voter', () => {
      const { state, now } = finishedGame(3);
      let current = setPresence(state, 'p3', false, now).state;
      current = vote(current, 'p1', true, now + 1).state;
      const second = vote(current, 'p2', true, now + 2);
      // p3 is offline but can still vote until the deadline.
      expect(second.state.rematch!.decided).toBeUndefined();
    });

    describe(decideRematch.name, () => {
      it('returns undefined when no rematch is open', () => {
        expect(decideRematch(lobby(2), true, T0)).toBeUndefined();
      });

      it('accepts at minPlayers 3 only with 3 yes', () => {
        const { state, now } = finishedGame(3, { minPlayers: 3 });
        let current = vote(state, 'p1', true, now).state;
        current = vote(current, 'p2', true, now).state;
        expect(current.rematch!.decided).toBeUndefined();
        const third = vote(current, 'p3', true, now);
        expect(eventData(third, 'rematch.decided')).toEqual({ accepted: true, playerIds: ['p1', 'p2', 'p3'] });
        expect(third.effects).toEqual([]);
      });
    });
  });

  describe('leave and kick', () => {
    it('removes the seat on leave, with player.left and a release effect', () => {
      const outcome = leave(lobby(3), 'p2', T0);
      expect(outcome.state.players.map((p) => p.id)).toEqual(['p1', 'p3']);
      expect(outcome.events).toEqual([{ type: 'player.left', data: { playerId: 'p2', reason: 'left' } }]);
      expect(outcome.effects).toEqual([{ kind: 'release', seats: ['p2'] }]);
      expect(outcome.reply).toEqual({});
    });

    it('removes the seat on kick, with reason kicked', () => {
      const outcome = kick(lobby(3), 'p3', T0);
      expect(outcome.state.players.map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(outcome.events).toEqual([{ type: 'player.left', data: { playerId: 'p3', reason: 'kicked' } }]);
      expect(outcome.effects).toEqual([{ kind: 'release', seats: ['p3'] }]);
    });

    it('refuses to kick an unknown player id with 409 player_not_found', () => {
      expect(refusal(() => kick(lobby(3), 'p9', T0))).toEqual({ code: TriviaErrorCode.PlayerNotFound, status: 409 });
    });

    it('takes a player who leaves mid-question out of the roster', () => {
      const outcome = leave(inQuestion(3), 'p2', T0 + 1000);
      expect(outcome.state.game!.roster).toEqual(['p1', 'p3']);
      expect(outcome.state.phase).toBe('question');
      const next = answer(outcome.state, 'p1', 0, 1, T0 + 2000);
      expect(eventData(next, 'question.progress')).toEqual({ index: 0, answered: 1, of: 2 });
    });

    it('closes the question early when the leaver was the last one to answer', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      state = answer(state, 'p2', 0, 0, T0 + 2000).state;
      const outcome = leave(state, 'p3', T0 + 3000);
      expect(eventTypes(outcome)).toEqual(['player.left', 'question.closed']);
      expect(outcome.state.phase).toBe('reveal');
      expect(flagsOf(outcome)).toEqual({});
      const closed = eventData<QuestionClosed>(outcome, 'question.closed');
      expect(closed.scores.map((s) => s.playerId)).toEqual(['p1', 'p2']);
    });

    it('closes the question early when a kicked player was the last one to answer', () => {
      let state = inQuestion(2);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      const outcome = kick(state, 'p2', T0 + 3000);
      expect(eventTypes(outcome)).toEqual(['player.left', 'question.closed']);
      expect(outcome.state.phase).toBe('reveal');
    });

    it('does not close the question when the only answerer leaves', () => {
      let state = inQuestion(3);
      state = answer(state, 'p1', 0, 1, T0 + 1000).state;
      const outcome = leave(state, 'p1', T0 + 2000);
      expect(outcome.state.phase).toBe('question');
      expect(eventTypes(outcome)).toEqual(['player.left']);
    });

    it('finishes the game without the leaver in the standings', () => {
      let state = inQuestion(3);
      state = leave(state, 'p3', T0 + 1).state;
      const { outcome } = playToEnd(state, (_id, i) => QUESTIONS[i].correct);
      const { standings } = eventData<{ standings: { playerId: string }[] }>(outcome, 'game.finished');
      expect(standings.map((s) => s.playerId)).toEqual(['p1', 'p2']);
      expect(outcome.state.rematch!.voters).toEqual(['p1', 'p2']);
    });

    it('accepts the rematch when a leave leaves only yes voters', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1).state;
      current = vote(current, 'p2', true, now + 2).state;
      const outcome = leave(current, 'p3', now + 3);
      expect(eventTypes(outcome)).toEqual(['player.left', 'rematch.decided']);
      expect(eventData(outcome, 'rematch.decided')).toEqual({ accepted: true, playerIds: ['p1', 'p2'] });
      expect(outcome.effects).toEqual([{ kind: 'release', seats: ['p3'] }]);
      expect(outcome.state.phase).toBe('lobby');
      expect(outcome.state.players.map((p) => p.id)).toEqual(['p1', 'p2']);
      expect(outcome.reply).toEqual({});
    });

    it('declines the rematch when a leave leaves too few yes votes to come', () => {
      const { state, now } = finishedGame(3);
      let current = vote(state, 'p1', true, now + 1).state;
      current = vote(current, 'p2', false, now + 2).state;
      const outcome = leave(current, 'p3', now + 3);
      expect(eventTypes(outcome)).toEqual(['player.left', 'rematch.decided']);
      expect(eventData(outcome, 'rematch.decided')).toEqual({ accepted: false, playerIds: ['p1'] });
      expect(outcome.state.phase).toBe('finished');
    });

    it('takes the leaver out of the voters while the rematch stays open', () => {
      const { state, now } = finishedGame(4);
      const outcome = leave(state, 'p4', now + 1);
      expect(outcome.state.rematch!.voters).toEqual(['p1', 'p2', 'p3']);
      expect(outcome.state.rematch!.decided).toBeUndefined();
      expect(eventTypes(outcome)).toEqual(['player.left']);
    });
  });

  describe('join', () => {
    it('seats a player in the lobby with player.joined', () => {
      const outcome = join(lobby(1), 'p9', 'Zed');
      expect(flagsOf(outcome)).toEqual({});
      expect(outcome.events).toEqual([{ type: 'player.joined', data: { player: { id: 'p9', name: 'Zed', connected: false, score: 0 } } }]);
      expect(outcome.state.players.map((p) => p.id)).toEqual(['p1', 'p9']);
      expect(outcome.reply).toEqual({ playerId: 'p9' });
    });

    it("is the rules' join proposal, which refuses arguments other than a playerId and a name", () => {
      const proposal = triviaRules.proposals!.join;
      expect(proposal(lobby(1), { playerId: 'p9', name: 'Zed' }, ctx(T0))).toEqual(join(lobby(1), 'p9', 'Zed'));
      expect(refusal(() => proposal(lobby(1), { playerId: 9, name: 'Zed' }, ctx(T0)))).toEqual({
        code: RoomErrorCode.BadData,
        status: 400,
      });
      expect(refusal(() => proposal(lobby(1), null, ctx(T0)))).toEqual({ code: RoomErrorCode.BadData, status: 400 });
    });

    // By section 13, a room seats late players unless it was opened with lateJoin false.
    // trivia.pace.spec.ts tests the seating of late players.
    it('refuses during a game with 409 game_in_progress, in a room that takes no late players', () => {
      expect(refusal(() => join(inQuestion(2, { lateJoin: false }), 'p9', 'Zed'))).toEqual({
        code: TriviaErrorCode.GameInProgress,
        status: 409,
      });
      const revealing = onDeadline(inQuestion(2, { lateJoin: false }), T0 + DURATION).state;
      expect(refusal(() => join(revealing, 'p9', 'Zed'))).toEqual({ code: TriviaErrorCode.GameInProgress, status: 409 });
    });

    it('refuses after the game finished with 409 game_in_progress', () => {
      const { state } = finishedGame(2);
      expect(refusal(() => join(state, 'p9', 'Zed'))).toEqual({ code: TriviaErrorCode.GameInProgress, status: 409 });
    });

    it('refuses a name already seated with 409 name_taken, whatever its case and spaces, and seats nobody', () => {
      const room = join(lobby(1), 'p9', 'Sam  Lee').state;
      for (const name of ['Sam Lee', ' sam lee ', 'SAM\tLEE'])
        expect(refusal(() => join(room, 'p10', name))).toEqual({ code: TriviaErrorCode.NameTaken, status: 409 });
      expect(join(room, 'p10', 'Sam Leed').state.players).toHaveLength(3);
    });

    it('refuses at maxPlayers with 409 room_full', () => {
      expect(refusal(() => join(lobby(4), 'p9', 'Zed'))).toEqual({ code: TriviaErrorCode.RoomFull, status: 409 });
      expect(join(lobby(3), 'p9', 'Zed').state.players).toHaveLength(4);
    });

    it('refuses in a closed room with 409 room_closed', () => {
      const closed = roomClosed(lobby(1), 'host').state;
      expect(refusal(() => join(closed, 'p9', 'Zed'))).toEqual({ code: RoomErrorCode.RoomClosed, status: 409 });
    });
  });

  describe(roomClosed.name, () => {
    it('closes once, with room.closed and a close effect', () => {
      const first = roomClosed(lobby(1), 'host');
      expect(first.state.phase).toBe('closed');
      expect(first.events).toEqual([{ type: 'room.closed', data: { reason: 'host' } }]);
      expect(first.effects).toEqual([{ kind: 'close', reason: 'host' }]);
      expect(roomClosed(first.state, 'host').events).toEqual([]);
    });
  });

  describe(batchKindOf.name, () => {
    it('batches answers with answers and votes with votes, nothing else', () => {
      expect(batchKindOf({ id: 'a', type: 'room.answer', data: { question: 0, choice: 0 } })).toBe('answer');
      expect(batchKindOf({ id: 'b', type: 'room.rematch', data: { vote: true } })).toBe('vote');
      expect(batchKindOf({ id: 'c', type: 'room.start', data: {} })).toBeNull();
      expect(batchKindOf({ id: 'd', type: 'room.leave', data: {} })).toBeNull();
      expect(batchKindOf({ id: 'e', type: 'room.kick', data: { playerId: 'p1' } })).toBeNull();
    });
  });
});
