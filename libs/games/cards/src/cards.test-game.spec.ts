import fc from 'fast-check';
import { ScriptStep, testGame } from '@app/room-engine/testing';
import { cardsGame } from './cards.game';
import { HUMAN_SEAT } from './cards.rules';
import { CardsState } from './cards.types';

// These tests play the card table through testGame(). Whatever the human does, and whenever, the
// journal rebuilds the table and an act costs one statement. While a hand is played, nobody sees a
// card that is not theirs: a bot's hole cards, the human's (for a spectator), or the deck not dealt
// yet.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const ACTIONS = ['fold', 'check', 'call', 'bet', 'raise', 'all_in'] as const;

/** What only each seat may see while a hand is played. The deck not dealt yet belongs to nobody. */
function secretOf(state: CardsState, seat: string): readonly string[] {
  const hand = state.hand;
  if (state.phase !== 'playing' || !hand) return [];
  const id = (n: number) => (n === HUMAN_SEAT ? state.playerId : `bot-${n}`);
  const held = hand.players.flatMap((p) => p.cards);
  if (seat === 'nobody') return hand.deck.filter((c) => !hand.board.includes(c) && !held.includes(c));
  return hand.players.filter((p) => id(p.seat) === seat).flatMap((p) => p.cards);
}

const settings = (seed: number) => ({ name: 'Ada', bots: 3, actionSeconds: 1, botThinkMs: [1, 900], handPauseMs: 500, seed });
const seats = (state: CardsState) => [
  'nobody',
  state.playerId,
  ...state.seats.filter((s) => s.seat !== HUMAN_SEAT).map((s) => `bot-${s.seat}`),
];

describe('the card table through testGame', () => {
  it('plays hands with the human acting now and then, and keeps every promise', async () => {
    const steps: ScriptStep[] = [900, 1500, 2600, 4000, 6000, 9000].map((at, i) => ({
      at,
      seat: 'p1',
      command: 'table.act',
      data: { action: ACTIONS[i % ACTIONS.length] },
    }));
    const report = await testGame(cardsGame, {
      settings: settings(42),
      steps: [...steps, { at: 30_000, wait: true }],
      secretOf,
      seatsOf: seats,
    });
    expect(report.accepted + Object.values(report.refused).reduce((a, b) => a + b, 0)).toBe(6);
    expect(report.snapshots).toBeGreaterThan(0);
    expect(report.framesChecked).toBeGreaterThan(0);
    for (const cost of Object.values(report.statementsPerCommand)) expect(cost).toBe(1);
  });

  it('keeps every promise whatever the human does, and whenever (property)', async () => {
    const acts = fc.array(
      fc.record({
        after: fc.oneof(fc.nat(50), fc.nat(3000)),
        action: fc.constantFrom(...ACTIONS, 'rebuy', 'leave'),
        amount: fc.option(fc.integer({ min: 0, max: 250 }), { nil: undefined }),
      }),
      { maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), acts, async (seed, moves) => {
        let at = 0;
        const steps = moves.map((m): ScriptStep => {
          at += m.after;
          if (m.action === 'rebuy' || m.action === 'leave') return { at, seat: 'p1', command: `table.${m.action}` };
          return {
            at,
            seat: 'p1',
            command: 'table.act',
            data: m.amount === undefined ? { action: m.action } : { action: m.action, amount: m.amount },
          };
        });
        await testGame(cardsGame, { settings: settings(seed), steps, secretOf, seatsOf: seats });
      }),
      { numRuns: RUNS },
    );
  });
});
