import { optionsFor, playerOf, potOf } from './cards.betting';
import { HandEvaluator } from './cards.evaluator';
import { ActionKind, Card, HandState } from './cards.types';

/** What a bot chose, before the rules check it like any other action. */
export interface BotChoice {
  readonly action: ActionKind;
  readonly amount?: number;
}

const VALUE: Record<string, number> = { T: 10, J: 11, Q: 12, K: 13, A: 14 };
const valueOf = (card: Card) => VALUE[card[0]] ?? Number(card[0]);

/**
 * How good a hand looks, from 0 to 1. Before the flop it is judged from the two cards (pairs, high
 * cards, suited, connected). After the flop it is judged from the made hand, discounted when the
 * board alone makes that hand, with a floor for a flush draw while cards are still to come.
 */
export function handStrength(hole: readonly Card[], board: readonly Card[], evaluator: HandEvaluator): number {
  const [a, b] = hole.map(valueOf).sort((x, y) => y - x);
  const suited = hole[0][1] === hole[1][1];
  if (board.length === 0) {
    if (a === b) return 0.5 + ((a - 2) / 12) * 0.45;
    const gap = a - b;
    return Math.min(1, ((a + b - 4) / 24) * 0.55 + (suited ? 0.06 : 0) + (gap <= 1 ? 0.04 : 0) + (a === 14 ? 0.08 : 0));
  }
  const made = evaluator.rank([...hole, ...board]).category;
  const boardAlone = evaluator.rank(board).category;
  const BASE = [0, 0.15, 0.42, 0.64, 0.74, 0.82, 0.86, 0.92, 0.97, 0.99];
  let strength = BASE[made] + ((a - 2) / 12) * 0.05;
  if (boardAlone >= made) strength = Math.min(strength, 0.2);
  const cards = [...hole, ...board];
  const flushDraw = hole.some((h) => cards.filter((c) => c[1] === h[1]).length === 4);
  if (board.length < 5 && flushDraw) strength = Math.max(strength, 0.42);
  return Math.min(1, strength);
}

/**
 * A simple, sensible player. It weighs its hand's strength (with some noise) against the pot odds,
 * bets and raises good hands in proportion to the pot, and bluffs rarely. `random` comes from the
 * table's seed and the hand, so the same hand is played the same way again.
 */
export function chooseBotAction(
  hand: HandState,
  seat: number,
  stack: number,
  bigBlind: number,
  evaluator: HandEvaluator,
  random: () => number,
): BotChoice {
  const me = playerOf(hand, seat);
  const o = optionsFor(hand, seat, stack);
  const pot = potOf(hand);
  const strength = handStrength(me.cards, hand.board, evaluator) + (random() - 0.5) * 0.2;
  const aggressive = (fraction: number): BotChoice => {
    const size = Math.max(hand.lastRaise, Math.round(pot * fraction));
    const total = Math.max(o.minTotal, hand.currentBet + size);
    if (total >= o.maxTotal || (strength > 0.95 && stack < pot)) return { action: 'all_in' };
    return { action: o.canBet ? 'bet' : 'raise', amount: total };
  };
  if (o.toCall === 0) {
    const canOpen = o.canBet || o.canRaise;
    if (canOpen && strength > 0.65) return aggressive(0.5 + random() * 0.5);
    if (canOpen && strength > 0.45 && random() < 0.25) return aggressive(0.5);
    return { action: 'check' };
  }
  const potOdds = o.toCall / (pot + o.toCall);
  if (o.canRaise && strength > 0.8) return aggressive(0.75);
  if (strength >= potOdds + 0.15 || (o.toCall <= bigBlind && strength > 0.25)) return { action: 'call' };
  if (o.canRaise && random() < 0.04) return aggressive(0.5);
  return { action: 'fold' };
}
