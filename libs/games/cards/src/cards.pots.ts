/** A pot as formed at the showdown: its chips, and the seats that may win it. */
export interface Pot {
  readonly amount: number;
  /** The seats that may win the pot, in seat order. */
  readonly eligible: readonly number[];
}

export interface AwardedPot {
  readonly amount: number;
  readonly winners: readonly { seat: number; amount: number }[];
}

/**
 * Forms the main pot and the side pots from what each seat put in during the hand. Each level at
 * which a seat still in the hand went all-in closes a pot, which the seats that matched it may win.
 * Folded chips stay in the pots they were put into.
 */
export function formPots(contributions: readonly { seat: number; totalIn: number; folded: boolean }[]): Pot[] {
  const left = new Map(contributions.map((c) => [c.seat, c.totalIn]));
  const live = contributions.filter((c) => !c.folded).map((c) => c.seat);
  const pots: Pot[] = [];
  for (;;) {
    const contenders = live.filter((s) => left.get(s)! > 0);
    if (contenders.length === 0) break;
    const level = Math.min(...contenders.map((s) => left.get(s)!));
    let amount = 0;
    for (const [seat, chips] of left) {
      const taken = Math.min(chips, level);
      amount += taken;
      left.set(seat, chips - taken);
    }
    pots.push({ amount, eligible: [...contenders].sort((a, b) => a - b) });
  }
  // Folded chips above every live seat's total go into the last pot. That cannot happen in a
  // betting round, but this way no chip is ever lost.
  const stray = [...left.values()].reduce((a, b) => a + b, 0);
  if (stray > 0 && pots.length > 0) pots[pots.length - 1] = { ...pots[pots.length - 1], amount: pots[pots.length - 1].amount + stray };
  return pots;
}

/**
 * Splits each pot among its best hands. The chips that do not divide evenly go one each to the
 * winners nearest the button's left.
 */
export function awardPots(
  pots: readonly Pot[],
  bestOf: (eligible: readonly number[]) => number[],
  button: number,
  seatCount: number,
): AwardedPot[] {
  const distance = (seat: number) => (seat - button - 1 + seatCount) % seatCount;
  return pots.map((pot) => {
    const winners = pot.eligible.length === 1 ? [...pot.eligible] : bestOf(pot.eligible);
    const ordered = [...winners].sort((a, b) => distance(a) - distance(b));
    const share = Math.floor(pot.amount / ordered.length);
    const odd = pot.amount - share * ordered.length;
    return { amount: pot.amount, winners: ordered.map((seat, i) => ({ seat, amount: share + (i < odd ? 1 : 0) })) };
  });
}
