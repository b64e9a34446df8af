import { seededRandom } from '@app/room-engine';
import fc from 'fast-check';
import { ctx, HOST, lobby, startCommand } from '../test/trivia.fixtures';
import { drawQuestions } from './trivia.draw';
import { decide } from './trivia.rules';
import { Question } from './trivia.types';

const question = (id: number): Question => ({ id, text: `Question ${id}?`, choices: ['yes', 'no'], correct: 0 });

/** A deck of distinct ids, some of them played already (and some played ids no longer in it). */
const drawArb = fc.record({
  ids: fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 14 }),
  played: fc.uniqueArray(fc.integer({ min: 1, max: 70 }), { maxLength: 20 }),
  count: fc.integer({ min: 1, max: 12 }),
  seed: fc.integer(),
  now: fc.integer({ min: 0, max: 2 ** 42 }),
});

describe(drawQuestions.name, () => {
  it('draws the same questions for the same state and context', () => {
    fc.assert(
      fc.property(drawArb, ({ ids, played, count, seed, now }) => {
        const deck = ids.map(question);
        expect(drawQuestions(deck, count, played, seededRandom(seed, now))).toEqual(
          drawQuestions(deck, count, played, seededRandom(seed, now)),
        );
        const state = { ...lobby(2, { questionCount: count }), deck, playedQuestionIds: played };
        const at = { now, random: seededRandom(seed, now), id: () => 'id' };
        expect(decide(state, HOST, startCommand(), at)).toEqual(
          decide(state, HOST, startCommand(), { now, random: seededRandom(seed, now), id: () => 'id' }),
        );
      }),
    );
  });

  it('draws distinct questions of the deck, as many as asked while the deck has them, the unplayed ones first', () => {
    fc.assert(
      fc.property(drawArb, ({ ids, played, count, seed, now }) => {
        const drawn = drawQuestions(ids.map(question), count, played, seededRandom(seed, now)).map((q) => q.id);
        expect(new Set(drawn).size).toBe(drawn.length);
        expect(drawn.every((id) => ids.includes(id))).toBe(true);
        expect(drawn).toHaveLength(Math.min(count, ids.length));
        const fresh = ids.filter((id) => !played.includes(id)).length;
        // A played question is drawn only once every unplayed one is in.
        expect(drawn.map((id) => played.includes(id))).toEqual(drawn.map((_id, i) => i >= fresh));
      }),
    );
  });

  it('draws in an order the seed and the moment decide', () => {
    const deck = [1, 2, 3, 4, 5, 6].map(question);
    const orders = new Set(
      Array.from({ length: 20 }, (_, seed) =>
        drawQuestions(deck, 6, [], seededRandom(seed, 1000))
          .map((q) => q.id)
          .join(),
      ),
    );
    expect(orders.size).toBeGreaterThan(10);
    expect(drawQuestions(deck, 6, [], seededRandom(3, 1000))).not.toEqual(drawQuestions(deck, 6, [], seededRandom(3, 1001)));
  });

  it('does not change the deck or the played ids it was given', () => {
    const deck = [1, 2, 3].map(question);
    const played = [2];
    drawQuestions(deck, 2, played, seededRandom(1, 1));
    expect(deck.map((q) => q.id)).toEqual([1, 2, 3]);
    expect(played).toEqual([2]);
  });

  it('keeps the played ids a set, growing by the questions of each game', () => {
    const first = decide({ ...lobby(1, { questionCount: 2 }), playedQuestionIds: [12] }, HOST, startCommand(), ctx(5)).state;
    expect([...first.playedQuestionIds].sort()).toEqual([...new Set([12, ...first.game!.questions.map((q) => q.id)])].sort());
    expect(first.game!.questions.map((q) => q.id)).not.toContain(12);
  });
});
