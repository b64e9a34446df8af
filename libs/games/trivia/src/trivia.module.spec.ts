import { answer, inQuestion, QUESTIONS, T0 } from '../test/trivia.fixtures';
import { triviaRules } from './trivia.game';
import { trivia as triviaModule } from './trivia.module';
import { TriviaState } from './trivia.types';

describe('triviaModule.fromSnapshot', () => {
  const opened = { deck: QUESTIONS } as unknown as Parameters<NonNullable<typeof triviaModule.fromSnapshot>>[1];

  it('brings a snapshot back as the state it was taken from, deck included', () => {
    const state = answer(inQuestion(3), 'p2', 0, 1, T0 + 1000).state;
    const json = JSON.parse(JSON.stringify(triviaRules.snapshotOf!(state)));
    expect(triviaModule.fromSnapshot!(json, opened)).toEqual({ ...state, deck: expect.any(Array) });
  });

  it('reads a snapshot from before answers were a list: by player id, in the order they came', () => {
    const state = answer(answer(inQuestion(3), 'p2', 0, 1, T0 + 1000).state, 'p1', 0, 0, T0 + 2000).state;
    const json = JSON.parse(JSON.stringify(triviaRules.snapshotOf!(state)));
    const [p2, p1] = json.game.answers;
    json.game.answers = { p2, p1 };
    const restored = triviaModule.fromSnapshot!(json, opened) as TriviaState;
    expect(restored.game!.answers.map((a) => a.playerId)).toEqual(['p2', 'p1']);
    // The restored room plays on. The third player's answer closes the question, and all three
    // answers are counted.
    const closed = answer(restored, 'p3', 0, 1, T0 + 3000);
    expect(closed.events.find((e) => e.type === 'question.closed')?.data).toMatchObject({ counts: [1, 2, 0, 0] });
  });
});
