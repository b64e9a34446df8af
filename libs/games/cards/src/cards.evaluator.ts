import { Hand } from 'pokersolver';
import { Card } from './cards.types';

/** The best five-card hand out of a seat's cards and the board, as the rules need it. */
export interface RankedHand {
  /** 1 (high card) to 9 (straight flush). */
  readonly category: number;
  /** For people: "Two Pair, A's & Q's". */
  readonly description: string;
}

/**
 * Our door to hand evaluation (a maintained library does the poker): rank a hand, and pick the
 * best of several with ties.
 */
export interface HandEvaluator {
  rank(cards: readonly Card[]): RankedHand;
  /** The indexes of the best hands among `hands` (more than one on a tie). */
  best(hands: readonly (readonly Card[])[]): number[];
}

export const pokersolverEvaluator: HandEvaluator = {
  rank(cards) {
    const hand = Hand.solve([...cards]);
    return { category: hand.rank, description: hand.descr };
  },
  best(hands) {
    const solved = hands.map((cards) => Hand.solve([...cards]));
    const winners = new Set(Hand.winners(solved));
    return solved.flatMap((h, i) => (winners.has(h) ? [i] : []));
  },
};
