import { answer, ctx, DURATION, HOST, lobby, QUESTIONS, refusal, startGame, T0 } from '../test/trivia.fixtures';
import { decide, join, nextDeadline, onDeadline } from './trivia.rules';
import { drawQuestions } from './trivia.draw';
import { triviaGame } from './trivia.game';
import { viewRoom } from './trivia.projection';
import { Outcome, Question, TriviaState } from './trivia.types';

// These tests cover the host's pace, the deck's order, a question's own time and late arrivals
// (PROTOCOL.md section 13).

const next = (state: TriviaState, now: number): Outcome =>
  decide(state, HOST, { id: `next-${now}`, type: 'room.next', data: {} }, ctx(now));
const types = (outcome: Outcome) => outcome.events.map((e) => e.type);

describe('the host’s pace', () => {
  const hostPaced = () => startGame(lobby(2, { pace: 'host' })).state;

  it('refuses room.next in a clock-paced room with 409 clock_paced', () => {
    expect(refusal(() => next(startGame(lobby(2)).state, T0 + 1000))).toEqual({ code: 'clock_paced', status: 409 });
  });

  it('refuses room.next outside a game with 409 wrong_phase', () => {
    expect(refusal(() => next(lobby(2, { pace: 'host' }), T0))).toEqual({ code: 'wrong_phase', status: 409 });
  });

  it('closes the open question at once, answered or not', () => {
    let state = answer(hostPaced(), 'p1', 0, 1, T0 + 1000).state;
    const closed = next(state, T0 + 2000);
    expect(types(closed)).toEqual(['question.closed']);
    expect(closed.reply).toEqual({});
    state = closed.state;
    expect(state.phase).toBe('reveal');
    expect(state.game!.lastReveal!.scores.map((s) => s.points)).toEqual([975, 0]);
  });

  it('waits after a reveal with no clock, until the host opens the next question', () => {
    const revealing = onDeadline(hostPaced(), T0 + DURATION).state;
    expect(revealing.phase).toBe('reveal');
    expect(revealing.game!.revealEndsAt).toBeUndefined();
    expect(nextDeadline(revealing)).toBeUndefined();
    expect(onDeadline(revealing, T0 + 3_600_000).state).toBe(revealing);
    // Nothing is due while the reveal waits, so the room may leave memory.
    expect(triviaGame.rules.mayPassivate(revealing)).toBe(true);
    const opened = next(revealing, T0 + 3_600_000);
    expect(types(opened)).toEqual(['question.open']);
    expect(opened.state.game).toMatchObject({ index: 1, openedAt: T0 + 3_600_000, closesAt: T0 + 3_600_000 + DURATION });
  });

  it('finishes the game when the host moves on after the last reveal', () => {
    let state = hostPaced();
    for (let i = 0; i < QUESTIONS.length; i++) {
      state = next(state, T0 + 1000 * (2 * i + 1)).state;
      if (i < QUESTIONS.length - 1) state = next(state, T0 + 1000 * (2 * i + 2)).state;
    }
    const finished = next(state, T0 + 10_000);
    expect(types(finished)).toEqual(['game.finished', 'rematch.open']);
    expect(finished.finished).toBeDefined();
  });

  it('keeps the clock’s pace by default: the reveal ends by itself', () => {
    const revealing = onDeadline(startGame(lobby(2)).state, T0 + DURATION).state;
    expect(revealing.game!.revealEndsAt).toBe(T0 + DURATION + 4000);
  });
});

describe('a question’s own time', () => {
  it('overrides the room’s for its window and its points', () => {
    const own: Question[] = [{ ...QUESTIONS[0], seconds: 60 }, QUESTIONS[1]];
    const opened = startGame(lobby(2), T0, undefined, own);
    expect(opened.state.game!.closesAt).toBe(T0 + 60_000);
    expect(opened.events[0].data).toMatchObject({ seconds: 60, closesAt: T0 + 60_000 });
    // The answer comes after half of the question's own 60 s (not past the room's 20 s), so it earns
    // 750 points.
    expect(answer(opened.state, 'p1', 0, 1, T0 + 30_000).state.game!.answers[0].points).toBe(750);
    const second = onDeadline(onDeadline(opened.state, T0 + 60_000).state, T0 + 64_000);
    expect(second.state.game!.closesAt).toBe(T0 + 64_000 + DURATION);
    expect(second.events[0].data).not.toHaveProperty('seconds');
  });
});

describe('the deck’s order', () => {
  const deck: Question[] = [1, 2, 3, 4, 5].map((id) => ({ id, text: `Q${id}?`, choices: ['a', 'b'], correct: 0 }));

  it('plays the deck in its order, unplayed questions first', () => {
    const random = () => 0.5;
    expect(drawQuestions(deck, 3, [], random, 'deck').map((q) => q.id)).toEqual([1, 2, 3]);
    expect(drawQuestions(deck, 3, [1, 2, 3], random, 'deck').map((q) => q.id)).toEqual([4, 5, 1]);
  });

  it('is what room.start draws with order "deck"', () => {
    const state = { ...lobby(1, { order: 'deck', questionCount: 3 }), deck };
    const started = decide(state, HOST, { id: 's', type: 'room.start', data: {} }, ctx(T0));
    expect(started.state.game!.questions.map((q) => q.id)).toEqual([1, 2, 3]);
  });
});

describe('late arrivals', () => {
  it('seats a player during a question, who plays from the next one, and says so in the standings', () => {
    let state = startGame(lobby(2)).state;
    const joined = join(state, 'late', 'Latecomer');
    expect(types(joined)).toEqual(['player.joined']);
    state = joined.state;
    expect(state.game!.roster).toEqual(['p1', 'p2']);
    expect(refusal(() => answer(state, 'late', 0, 1, T0 + 1000))).toEqual({ code: 'not_in_game', status: 409 });
    state = onDeadline(state, T0 + DURATION).state;
    state = onDeadline(state, state.game!.revealEndsAt!).state;
    expect(state.game!.roster).toEqual(['p1', 'p2', 'late']);
    expect(state.game!.index).toBe(1);
    state = answer(state, 'late', 1, 2, state.game!.openedAt + 1000).state;
    while (state.phase !== 'finished') state = onDeadline(state, nextDeadline(state)!).state;
    expect(state.standings!.find((s) => s.playerId === 'late')).toMatchObject({ from: 1, correct: 1 });
    expect(state.standings!.find((s) => s.playerId === 'p1')).not.toHaveProperty('from');
  });

  it("says in room.state, on the late arrival's seat, from which question that player plays", () => {
    const fromOf = (state: TriviaState) =>
      Object.fromEntries((viewRoom(state, HOST, T0).players as { id: string; from?: number }[]).map((p) => [p.id, p.from]));
    let state = join(startGame(lobby(2)).state, 'late', 'Latecomer').state;
    // Seated during question 0: from the next question.
    expect(fromOf(state)).toEqual({ p1: undefined, p2: undefined, late: 1 });
    state = onDeadline(state, T0 + DURATION).state;
    state = onDeadline(state, state.game!.revealEndsAt!).state;
    expect(state.game!.index).toBe(1);
    expect(fromOf(state)).toEqual({ p1: undefined, p2: undefined, late: 1 });
    while (state.phase !== 'finished') state = onDeadline(state, nextDeadline(state)!).state;
    // After the game the standings say it; the seats do not.
    expect(fromOf(state)).toEqual({ p1: undefined, p2: undefined, late: undefined });
  });

  it('seats a player during a reveal, who plays from the next question', () => {
    const revealing = onDeadline(startGame(lobby(2)).state, T0 + DURATION).state;
    const state = join(revealing, 'late', 'Latecomer').state;
    expect(state.game!.late).toEqual([{ playerId: 'late', from: 1 }]);
  });

  it('refuses a late player with 409 game_in_progress in a room opened with lateJoin false, changing nothing', () => {
    const state = startGame(lobby(2, { lateJoin: false })).state;
    expect(refusal(() => join(state, 'late', 'Latecomer'))).toEqual({ code: 'game_in_progress', status: 409 });
  });

  it('still refuses a full room, and a name already seated', () => {
    const state = startGame(lobby(4)).state;
    expect(refusal(() => join(state, 'late', 'Latecomer'))).toEqual({ code: 'room_full', status: 409 });
    expect(refusal(() => join(startGame(lobby(2)).state, 'late', 'name p1'))).toEqual({ code: 'name_taken', status: 409 });
  });
});
