import { okReply } from '@app/protocol';
import { HUMAN, PLAYER_ID, prng, SETTINGS, SimStep, TableSim, ctx, wildHuman } from '../test/cards.fixtures';
import { cardsRules } from './cards.game';
import { CardsRecord } from './cards.legacy';
import { cards } from './cards.module';
import { HUMAN_SEAT, fromCheckpoint, openingCheckpoint, resumed } from './cards.rules';
import { CardsState, HandCheckpoint, TableSettings } from './cards.types';

// Tables open at the upgrade come back once from the cards' old tables (CardsRecord: the last
// hand's checkpoint, the human's actions and rebuys since, every acknowledged reply) through the
// old replay: the bots' actions since are taken again from the seed, on their own schedule.

const IDS = { tableId: 'table-1', code: 'CARDS1', playerId: PLAYER_ID };
const FAST: TableSettings = { ...SETTINGS, seed: 1234, botThinkMs: [1, 40], handPauseMs: 3, actionSeconds: 60 };
const SEED = 99;

const checkpointOf = (s: CardsState): HandCheckpoint => ({
  number: s.handsPlayed,
  button: s.button,
  at: s.lastHandAt,
  seats: s.seats.map((x) => ({ seat: x.seat, stack: x.stack, buyInTotal: x.buyInTotal, hands: x.hands })),
});

/** What the old tables held of a table played live: they kept what the old writes wrote. */
function recordOf(sim: TableSim): CardsRecord {
  let checkpoint = openingCheckpoint(FAST, sim.steps[0]?.before.lastHandAt ?? 0);
  let actions: CardsRecord['actions'][number][] = [];
  let rebuys: CardsRecord['rebuys'][number][] = [];
  const acknowledged: { commandId: string; reply: unknown }[] = [];
  sim.steps.forEach((step: SimStep, i) => {
    const o = step.outcome;
    if (!o) return;
    if (step.kind === 'human' && step.action) {
      const hand = step.before.hand!;
      const commandId = `h-${i}`;
      actions.push({ hand: hand.number, seq: hand.actions, action: step.action.action, amount: step.action.amount ?? null, at: Math.max(step.at, hand.turnAt), commandId });
      acknowledged.push({ commandId, reply: {} });
    } else if (step.kind === 'human') {
      const commandId = `r-${i}`;
      rebuys.push({ afterHand: step.before.handsPlayed, stack: FAST.buyIn, at: step.at, commandId });
      acknowledged.push({ commandId, reply: { stack: FAST.buyIn } });
    }
    if (o.boundary) {
      checkpoint = checkpointOf(o.state);
      actions = [];
      rebuys = [];
    }
  });
  return { ...IDS, settings: FAST, closed: false, checkpoint, actions, rebuys, acknowledged, lateDeadlines: [] };
}

/** A table played with a human who tries anything, stopped right after an action of the human mid-hand, some hands in. */
function playedMidHand(seed: number): TableSim {
  const sim = new TableSim(FAST, wildHuman, prng(seed), (draw) => Math.floor(draw() * 30));
  for (let i = 0; i < 20_000; i++) {
    const step = sim.step();
    if (!step) break;
    if (sim.state.handsPlayed >= 3 && step.kind === 'human' && step.action && step.outcome && sim.state.phase === 'playing') return sim;
  }
  throw new Error('the table never reached a human action mid-hand');
}

const restore = (record: CardsRecord) => cards.legacy!.restore(record, SEED, { expirySeconds: 300 });

describe('cards.legacy', () => {
  it.each([1, 2, 3, 4, 5])('rebuilds a table mid-hand from its checkpoint and the human actions since, the bots acting as they did (run %i)', (run) => {
    const sim = playedMidHand(run);
    const record = recordOf(sim);
    expect(record.checkpoint.number).toBeGreaterThanOrEqual(3);
    expect(record.actions.length).toBeGreaterThan(0);
    const { state, replies } = restore(record);
    expect(state).toEqual(resumed(sim.state));
    // Every acknowledged command's reply is owed to a resend, once.
    const byId = (a: { reply: { id: string | null } }, b: { reply: { id: string | null } }) => String(a.reply.id).localeCompare(String(b.reply.id));
    expect([...replies].sort(byId)).toEqual(record.acknowledged.map((a) => ({ seat: `p:${PLAYER_ID}`, reply: okReply(a.commandId, a.reply) })).sort(byId));
  });

  it('replays a human action taken in the very millisecond its turn began, after the deadline that began it', () => {
    let state = fromCheckpoint(IDS, FAST, openingCheckpoint(FAST, 1_000_000));
    while (!(state.phase === 'playing' && state.hand!.toAct === HUMAN_SEAT)) state = cardsRules.onSignal(state, { kind: 'deadline' }, ctx(cardsRules.nextDeadline(state)!)).state;
    const { turnAt, number, actions } = state.hand!;
    const live = cardsRules.decide(state, HUMAN, { id: 'c-1', type: 'table.act', data: { action: 'fold' } }, ctx(turnAt));
    const record: CardsRecord = {
      ...IDS,
      settings: FAST,
      closed: false,
      checkpoint: openingCheckpoint(FAST, 1_000_000),
      actions: [{ hand: number, seq: actions, action: 'fold', amount: null, at: turnAt, commandId: 'c-1' }],
      rebuys: [],
      acknowledged: [{ commandId: 'c-1', reply: {} }],
      lateDeadlines: [],
    };
    const { state: back, replies } = restore(record);
    expect(back).toEqual(resumed(live.state));
    expect(replies).toEqual([{ seat: `p:${PLAYER_ID}`, reply: okReply('c-1', {}) }]);
  });

  it('brings back a table between hands at its checkpoint, and a closed table as closed with the replies it owes', () => {
    const open: CardsRecord = { ...IDS, settings: FAST, closed: false, checkpoint: openingCheckpoint(FAST, 1000), actions: [], rebuys: [], acknowledged: [], lateDeadlines: [] };
    expect(restore(open).state).toMatchObject({ phase: 'between', handsPlayed: 0, nextHandAt: 1000 + FAST.handPauseMs });
    const closed = restore({ ...open, closed: true, acknowledged: [{ commandId: 'l-1', reply: {} }] });
    expect(closed.state.phase).toBe('closed');
    expect(closed.replies).toEqual([{ seat: `p:${PLAYER_ID}`, reply: okReply('l-1', {}) }]);
  });
});
