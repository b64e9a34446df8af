import { seededRandom } from '@app/room-engine';
import { Card } from './cards.types';

const RANKS = '23456789TJQKA';
const SUITS = 'shdc';

export const FULL_DECK: readonly Card[] = [...SUITS].flatMap((s) => [...RANKS].map((r) => `${r}${s}`));

export const CARD_PATTERN = /^[2-9TJQKA][shdc]$/;

/**
 * The deck of hand `number` at a table with this seed, shuffled (Fisher-Yates) by a generator of
 * its own. Because of that, recovery deals the same cards whatever the timing of the hands before.
 */
export function deckFor(seed: number, number: number): Card[] {
  const random = seededRandom(seed, number);
  const deck = [...FULL_DECK];
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/**
 * Says where each card of a hand comes from in the deck. Two rounds deal one hole card per seat,
 * starting from the seat left of the button. Then one card is burned before the flop, the turn and
 * the river.
 */
export function dealHand(deck: readonly Card[], order: readonly number[]): { hole: Map<number, [Card, Card]>; board: Card[] } {
  const n = order.length;
  const hole = new Map<number, [Card, Card]>();
  order.forEach((seat, i) => hole.set(seat, [deck[i], deck[n + i]]));
  const at = 2 * n;
  const board = [deck[at + 1], deck[at + 2], deck[at + 3], deck[at + 5], deck[at + 7]];
  return { hole, board };
}
