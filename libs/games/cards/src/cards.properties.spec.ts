import { seededRandom } from '@app/room-engine';
import fc from 'fast-check';
import { prng, TableSim, wildHuman, SimStep } from '../test/cards.fixtures';
import { legalMove, potOf } from './cards.betting';
import { chooseBotAction } from './cards.bot';
import { pokersolverEvaluator } from './cards.evaluator';
import { buyInsOf, chipsAtTable, HUMAN_SEAT } from './cards.rules';
import { ActionKind, CardsState } from './cards.types';

// These properties hold over random tables (seed, number of bots, blinds, the human's choices and timing).
const tables = fc.record({
  seed: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  bots: fc.integer({ min: 1, max: 8 }),
  smallBlind: fc.integer({ min: 1, max: 5 }),
  extraBig: fc.integer({ min: 0, max: 5 }),
  buyIn: fc.integer({ min: 20, max: 300 }),
  human: fc.integer(),
});

function simOf(
  t: { seed: number; bots: number; smallBlind: number; extraBig: number; buyIn: number; human: number },
  delay?: (d: () => number) => number,
) {
  const bigBlind = t.smallBlind + t.extraBig;
  return new TableSim(
    { seed: t.seed, bots: t.bots, smallBlind: t.smallBlind, bigBlind, buyIn: Math.max(t.buyIn, bigBlind) },
    wildHuman,
    prng(t.human),
    delay,
  );
}

/** The answer that section 8 says the human's action gets, given the state it was taken in. */
function expected(before: CardsState, action: ActionKind, amount: number | undefined): string {
  const hand = before.hand;
  if (before.phase !== 'playing' || !hand || hand.toAct !== HUMAN_SEAT) return 'not_your_turn';
  const me = hand.players.find((p) => p.seat === HUMAN_SEAT)!;
  const toCall = hand.currentBet - me.committed;
  const max = me.committed + before.seats[HUMAN_SEAT].stack;
  const min = hand.currentBet + hand.lastRaise;
  const closed = hand.raiseClosed.includes(HUMAN_SEAT);
  const sized = () => (amount === undefined || amount > max || (amount < min && amount !== max) ? 'bad_amount' : 'ok');
  switch (action) {
    case 'fold':
      return 'ok';
    case 'check':
      return toCall === 0 ? 'ok' : 'illegal_action';
    case 'call':
      return toCall > 0 ? 'ok' : 'illegal_action';
    case 'bet':
      return hand.currentBet > 0 ? 'illegal_action' : sized();
    case 'raise':
      return hand.currentBet === 0 || closed || max <= hand.currentBet ? 'illegal_action' : sized();
    case 'all_in':
      return max > hand.currentBet && closed ? 'illegal_action' : 'ok';
  }
}

const STATUS: Record<string, number> = { not_your_turn: 409, illegal_action: 409, bad_amount: 400 };

describe('card table properties', () => {
  it('conserves chips at every step: the stacks plus the pot equal the buy-ins', () => {
    fc.assert(
      fc.property(tables, (t) => {
        const sim = simOf(t);
        sim.runHands(12, 5000, (_step, s) => {
          expect(chipsAtTable(s.state)).toBe(buyInsOf(s.state));
          expect(s.state.seats.every((seat) => seat.stack >= 0)).toBe(true);
        });
      }),
      { numRuns: 25 },
    );
  });

  it('pays every pot in full, evenly, the odd chips to the first winners left of the button', () => {
    fc.assert(
      fc.property(tables, (t) => {
        const sim = simOf(t);
        sim.runHands(12, 5000, (step) => {
          const finished = step.outcome?.events.find((e) => e.type === 'hand.finished')?.data as any;
          if (!finished) return;
          const n = step.before.seats.length;
          // The hand may have started in this very step, when the blinds put everyone all in.
          const started = step.outcome!.events.find((e) => e.type === 'hand.started')?.data as any;
          const button = started?.button ?? step.before.hand!.button;
          const moved = step.outcome!.events.filter((e) => e.type === 'action.applied').map((e) => e.data as any);
          const pot = moved.length ? moved[moved.length - 1].pot : (started?.pot ?? potOf(step.before.hand!));
          expect(finished.pots.reduce((sum: number, p: any) => sum + p.amount, 0)).toBe(pot);
          for (const p of finished.pots) {
            const amounts = p.winners.map((w: any) => w.amount);
            expect(amounts.reduce((a: number, b: number) => a + b, 0)).toBe(p.amount);
            expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
            const distance = p.winners.map((w: any) => (w.seat - button - 1 + n) % n);
            expect(distance).toEqual([...distance].sort((a, b) => a - b));
            expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
          }
        });
      }),
      { numRuns: 25 },
    );
  });

  it('accepts no illegal action: 409 not_your_turn, 409 illegal_action, 400 bad_amount as section 8 says', () => {
    fc.assert(
      fc.property(
        tables,
        fc.array(
          fc.record({
            action: fc.constantFrom<ActionKind>('fold', 'check', 'call', 'bet', 'raise', 'all_in'),
            amount: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
            early: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (t, extra) => {
          const sim = simOf(t);
          const check = (step: SimStep) => {
            if (step.kind !== 'human' || !step.action) return;
            const want = expected(step.before, step.action.action, step.action.amount);
            if (want === 'ok') {
              expect(step.refused).toBeUndefined();
              const applied = step.outcome!.events.find((e) => e.type === 'action.applied')!.data as any;
              expect(applied.seat).toBe(HUMAN_SEAT);
              expect(applied.stack).toBeGreaterThanOrEqual(0);
            } else {
              expect({ code: step.refused?.code, status: step.refused?.status }).toEqual({ code: want, status: STATUS[want] });
              expect(sim.state).toBe(step.before);
            }
          };
          sim.runHands(8, 4000, (step, s) => {
            check(step);
            // Now and then the human also tries something out of turn, or one of the fuzzed actions.
            const probe = extra[s.steps.length % Math.max(1, extra.length)];
            if (probe && probe.early) check(s.human(s.now, probe));
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('has bots that only ever choose legal actions', () => {
    fc.assert(
      fc.property(tables, fc.integer(), (t, draws) => {
        const sim = simOf(t);
        let choices = 0;
        sim.runHands(8, 4000, (_step, s) => {
          const hand = s.state.hand;
          if (s.state.phase !== 'playing' || !hand || hand.toAct === null || hand.toAct === HUMAN_SEAT) return;
          const stack = s.state.seats[hand.toAct].stack;
          const choice = chooseBotAction(
            hand,
            hand.toAct,
            stack,
            s.state.settings.bigBlind,
            pokersolverEvaluator,
            seededRandom(draws, choices++),
          );
          expect(() => legalMove(hand, hand.toAct!, stack, choice.action, choice.amount)).not.toThrow();
        });
        expect(choices).toBeGreaterThan(0);
      }),
      { numRuns: 25 },
    );
  });

  it('plays the same hands from the same seed and the same human actions, whatever the timing', () => {
    fc.assert(
      fc.property(tables, (t) => {
        const hands = (delay: (d: () => number) => number) => {
          const sim = simOf(t, delay);
          sim.runHands(10, 5000);
          return sim.frames
            .get('spectator')!
            .filter((f) => ['hand.started', 'action.applied', 'street.dealt', 'hand.finished'].includes(f.type))
            .map((f) => {
              const { actionDeadline: _deadline, ...rest } = f.data as any;
              return { type: f.type, data: rest };
            });
        };
        // A quick human and a slow one (both inside the clock) take the same actions.
        expect(hands(() => 5)).toEqual(hands(() => 9000));
      }),
      { numRuns: 25 },
    );
  });
});
