import { pokersolverEvaluator as evaluator } from './cards.evaluator';

describe('pokersolverEvaluator', () => {
  it('ranks the categories from high card to straight flush', () => {
    const board = ['2d', '7c', '9h', 'Js', 'Kd'];
    expect(evaluator.rank(['3c', '4s', ...board]).category).toBe(1);
    expect(evaluator.rank(['Kc', '4s', ...board])).toEqual({ category: 2, description: "Pair, K's" });
    expect(evaluator.rank(['As', 'Ks', 'Qs', 'Js', 'Ts', '2d', '3c']).category).toBe(9);
  });

  it('counts the wheel (A-2-3-4-5) as a straight, and the lowest one', () => {
    const board = ['2d', '3c', '4h', '5s', 'Kd'];
    expect(evaluator.rank(['Ac', '9s', ...board]).category).toBe(5);
    // A six-high straight beats the wheel.
    expect(
      evaluator.best([
        ['Ac', '9s', ...board],
        ['6c', '9d', ...board],
      ]),
    ).toEqual([1]);
  });

  it('decides by kickers and reports ties', () => {
    const board = ['Ad', 'Ac', '8h', '5s', '2d'];
    expect(
      evaluator.best([
        ['Kc', '3s', ...board],
        ['Qc', 'Js', ...board],
      ]),
    ).toEqual([0]);
    // Both play A A K 8 5.
    expect(
      evaluator.best([
        ['Kc', '3s', ...board],
        ['Kh', '4s', ...board],
      ]),
    ).toEqual([0, 1]);
  });

  it('knows a board that plays for everyone', () => {
    const board = ['Th', 'Jh', 'Qh', 'Kh', 'Ah'];
    expect(
      evaluator.best([
        ['2c', '3c', ...board],
        ['4d', '5d', ...board],
        ['6s', '7s', ...board],
      ]),
    ).toEqual([0, 1, 2]);
  });
});
