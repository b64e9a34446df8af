import { awardPots, formPots } from './cards.pots';

describe('pots', () => {
  describe(formPots.name, () => {
    it('forms a main pot and two side pots from three all-ins of different sizes', () => {
      // Seat 1 is all in for 50, seat 2 for 120 and seat 3 for 300, and seat 4 covers with 300.
      const pots = formPots([
        { seat: 1, totalIn: 50, folded: false },
        { seat: 2, totalIn: 120, folded: false },
        { seat: 3, totalIn: 300, folded: false },
        { seat: 4, totalIn: 300, folded: false },
      ]);
      expect(pots).toEqual([
        { amount: 200, eligible: [1, 2, 3, 4] }, // 4 x 50
        { amount: 210, eligible: [2, 3, 4] }, // 3 x 70
        { amount: 360, eligible: [3, 4] }, // 2 x 180
      ]);
    });

    it('keeps folded chips in the pots they went into, and no folded seat is eligible', () => {
      const pots = formPots([
        { seat: 0, totalIn: 30, folded: true },
        { seat: 1, totalIn: 20, folded: false },
        { seat: 2, totalIn: 100, folded: false },
        { seat: 3, totalIn: 100, folded: false },
      ]);
      // The first pot takes 20 from each of the four seats. The second takes the rest: 10 folded chips + 80 + 80.
      expect(pots).toEqual([
        { amount: 80, eligible: [1, 2, 3] },
        { amount: 170, eligible: [2, 3] },
      ]);
    });

    it('makes the uncalled part of a bet a pot only its owner can win', () => {
      expect(
        formPots([
          { seat: 0, totalIn: 40, folded: false },
          { seat: 1, totalIn: 100, folded: false },
        ]),
      ).toEqual([
        { amount: 80, eligible: [0, 1] },
        { amount: 60, eligible: [1] },
      ]);
    });
  });

  describe(awardPots.name, () => {
    it('gives the odd chip of a split pot to the first winner left of the button', () => {
      // The button is at seat 4 of 6, so the seats to its left are 5, 0, 1 and so on.
      const [pot] = awardPots([{ amount: 101, eligible: [1, 3, 5] }], () => [1, 5], 4, 6);
      expect(pot).toEqual({
        amount: 101,
        winners: [
          { seat: 5, amount: 51 },
          { seat: 1, amount: 50 },
        ],
      });
    });

    it('gives two odd chips to the first two winners left of the button', () => {
      const [pot] = awardPots([{ amount: 11, eligible: [0, 2, 3] }], () => [0, 2, 3], 2, 6);
      // Counting from the button's left, the winners come in the order 3, 0, 2.
      expect(pot.winners).toEqual([
        { seat: 3, amount: 4 },
        { seat: 0, amount: 4 },
        { seat: 2, amount: 3 },
      ]);
    });

    it('awards each side pot among its own eligible seats', () => {
      const pots = formPots([
        { seat: 1, totalIn: 50, folded: false },
        { seat: 2, totalIn: 120, folded: false },
        { seat: 3, totalIn: 300, folded: false },
        { seat: 4, totalIn: 300, folded: false },
      ]);
      // Seat 1 has the best hand, then seat 3, then 2 and 4.
      const rank: Record<number, number> = { 1: 4, 3: 3, 2: 2, 4: 1 };
      const best = (eligible: readonly number[]) => {
        const top = Math.max(...eligible.map((s) => rank[s]));
        return eligible.filter((s) => rank[s] === top);
      };
      expect(awardPots(pots, best, 0, 6)).toEqual([
        { amount: 200, winners: [{ seat: 1, amount: 200 }] },
        { amount: 210, winners: [{ seat: 3, amount: 210 }] },
        { amount: 360, winners: [{ seat: 3, amount: 360 }] },
      ]);
    });
  });
});
