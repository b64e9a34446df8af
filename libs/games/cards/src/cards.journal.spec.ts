import { RoomException } from '@app/protocol';
import fc from 'fast-check';
import { expectRebuilt, JournaledRoom } from '../../test/journaled-room';
import { HUMAN, PLAYER_ID, prng, SETTINGS, T0, wildHuman } from '../test/cards.fixtures';
import { TableCommand } from './cards.commands';
import { cardsRules } from './cards.game';
import { HUMAN_SEAT, openCards } from './cards.rules';
import { CardsState } from './cards.types';

// Issue 21 says that a table is its journal. These tests play random tables the way the engine
// drives them: bots and clocks on their deadlines, a human who tries anything, sockets that come and
// go, restarts with deadlines taken late, and holds of the clocks while writes failed. Then they
// rebuild each table by replaying the journal through the same rules, either from the opening or
// from the latest snapshot (the state as JSON at a hand's end).

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);

const scenarioArb = fc.record({
  seed: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  human: fc.integer(),
  bots: fc.integer({ min: 1, max: 5 }),
  buyIn: fc.integer({ min: 4, max: 60 }),
  actionSeconds: fc.constantFrom(0.2, 1, 15),
  handPauseMs: fc.constantFrom(0, 3, 2000),
  steps: fc.array(
    fc.record({
      pick: fc.nat(99),
      delayMs: fc.oneof(fc.nat(50), fc.nat(3000), fc.nat(120_000)),
    }),
    { minLength: 10, maxLength: 150, size: 'medium' },
  ),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function play(scenario: Scenario): JournaledRoom<CardsState, TableCommand> {
  const settings = {
    ...SETTINGS,
    seed: scenario.seed,
    bots: scenario.bots,
    buyIn: scenario.buyIn,
    actionSeconds: scenario.actionSeconds,
    handPauseMs: scenario.handPauseMs,
    botThinkMs: [1, 900] as const,
  };
  const opening = openCards({ tableId: 'table-1', code: 'CARDS1', playerId: PLAYER_ID, settings, openedAt: T0 });
  const room = new JournaledRoom(cardsRules, 99, opening, T0);
  const draw = prng(scenario.human);
  let n = 0;
  const command = (type: string, data: unknown, at: number) => {
    let parsed: TableCommand;
    try {
      parsed = cardsRules.parseCommand({ id: `c${n++}`, type, data }, 'player');
    } catch (err) {
      if (err instanceof RoomException) return;
      throw err;
    }
    room.command(HUMAN, parsed, at);
  };
  // The bots play (and the clocks run) until it is the human's turn, but only for a while at most.
  const advanceToHuman = () => {
    for (let i = 0; i < 30; i++) {
      const s = room.state;
      const due = cardsRules.nextDeadline(s);
      if (due === undefined || (s.phase === 'playing' && s.hand!.toAct === HUMAN_SEAT && i > 0)) return;
      room.advanceTo(due + 1);
    }
  };
  for (const { pick, delayMs } of scenario.steps) {
    const s = room.state;
    if (cardsRules.isOver(s)) break;
    if (pick < 70) {
      // The next thing happens: the human acts on its turn (before its clock runs out, or not), buys
      // in again, or a deadline fires.
      if (s.phase === 'playing' && s.hand!.toAct === HUMAN_SEAT)
        command('table.act', wildHuman(s, draw), Math.max(room.now, s.hand!.turnAt + (delayMs % 1500)));
      else if (s.phase === 'waiting' && delayMs % 7 !== 0) command('table.rebuy', {}, room.now + delayMs);
      else advanceToHuman();
    } else if (pick < 85) {
      room.signal({ kind: 'presence', seat: PLAYER_ID, connected: !s.seats[HUMAN_SEAT].connected }, room.now + (delayMs % 100));
    } else if (pick < 94) {
      room.restart(room.now, room.now + delayMs);
    } else if (pick < 97) {
      // The writes fail for a while. The clocks are held, and each one moves on by the time it was held.
      room.advanceTo(room.now + (delayMs % 500));
      const due = cardsRules.nextDeadline(room.state);
      room.hold(room.now, delayMs + 1);
      expect(cardsRules.nextDeadline(room.state)).toBe(due === undefined ? undefined : due + delayMs + 1);
    } else if (pick < 98 && delayMs % 4 === 0) {
      command('table.leave', {}, room.now + 1);
    } else {
      room.advanceTo(room.now + delayMs);
    }
  }
  return room;
}

describe('card table recovery (property)', () => {
  it('A: a table replayed from its journal is the table that was played, with every reply it gave', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        expectRebuilt(play(scenario), 'opening');
      }),
      { numRuns: RUNS },
    );
  });

  it("B: replayed from the latest snapshot (the state as JSON at a hand's end), it is the same table", () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        expectRebuilt(play(scenario), 'snapshot');
      }),
      { numRuns: RUNS },
    );
  });

  it('C: every rule decides the same on the JSON of a table as on the table, mid-hand or not, and each restart finds the table that stopped', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        expect(play(scenario).divergences).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('D: the journal holds the human alone: bots and clocks on time are never in it', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const room = play(scenario);
        for (const input of room.journal) {
          if (input.kind === 'command') expect(input.actor).toEqual(HUMAN);
          if (input.kind === 'signal') expect(['presence', 'resumed']).toContain(input.body.kind);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
