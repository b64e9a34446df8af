import { Hand } from 'pokersolver';
import { Card } from './cards.types';

/** The best five-card hand out of a seat's cards and the board, as the rules need it. */
export interface RankedHand {
  /** The hand's category, from 1 (high card) to 9 (straight flush). */
  readonly category: number;
  /** The hand's name for people, such as "Two Pair, A's & Q's". */
  readonly description: string;
}

/**
 * Our door to hand evaluation, where a maintained library does the poker. It ranks a hand, and
 * picks the best of several hands, ties included.
 */
export interface HandEvaluator {
  rank(cards: readonly Card[]): RankedHand;
  /** The indexes of the best hands among `hands`. There is more than one on a tie. */
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
