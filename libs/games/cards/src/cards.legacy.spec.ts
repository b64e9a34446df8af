import { ReplyFrame } from '@app/protocol';
import { RoomActor, RoomActorDeps, Viewer } from '@app/room-engine';
import { PLAYER_ID, SETTINGS } from '../test/cards.fixtures';
import { optionsFor } from './cards.betting';
import { CardsResult, cardsRules } from './cards.game';
import { CardsRecord, openedRecord, recordWrite, restoreCards } from './cards.restore';
import { HUMAN_SEAT, fromCheckpoint, openingCheckpoint, resumed } from './cards.rules';
import { CardsState, CardsWrite, TableSettings } from './cards.types';

// A live table on the real engine with a store that keeps the record as plain data, stopped
// mid-hand; then the same table rebuilt from that record alone.

const IDS = { tableId: 'table-1', code: 'CARDS1', playerId: PLAYER_ID };
// Quick bots and pauses; the human's clock is long enough never to run out in the test.
const FAST: TableSettings = { ...SETTINGS, seed: 1234, botThinkMs: [1, 4], handPauseMs: 3, actionSeconds: 60 };

type Actor = RoomActor<CardsState, any, CardsWrite, CardsResult, any>;

function deps(store: { record: CardsRecord }, clock: () => number, onDispose = () => undefined): RoomActorDeps<CardsWrite, CardsResult> {
  return {
    store: {
      commit: async (writes) => {
        for (const w of writes) store.record = recordWrite(store.record, w);
        return writes.map(() => ({ kind: 'done' as const }));
      },
      recordLateDeadline: async (_roomId, due, at) => {
        store.record = { ...store.record, lateDeadlines: [...store.record.lateDeadlines, { due, at }] };
      },
    },
    clock: { now: clock },
    observer: { command: () => undefined },
    mailboxDepth: 16,
    passivateAfterMs: 60_000,
    commandBudgetMs: 5000,
    seed: 99,
    committedStatements: 0,
    onDispose,
    log: () => undefined,
  };
}

function viewer(onEvent: (type: string, data: any) => void, replies: ReplyFrame[] = []): Viewer {
  return {
    socketId: 'human-1',
    role: 'player',
    seat: PLAYER_ID,
    wire: 'json',
    sendEvent: (event) => onEvent(event.type, event.data),
    sendReply: (r) => replies.push(r),
    close: () => undefined,
  };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((res) => setTimeout(res, 2));
  expect(cond()).toBe(true);
};

describe('restoreCards', () => {
  it('rebuilds a table mid-hand from its checkpoint and the human actions recorded since, with the bots acting as they did', async () => {
    const openedAt = Date.now();
    const store = { record: openedRecord(IDS, FAST, openingCheckpoint(FAST, openedAt)) };
    const live: Actor = RoomActor.restore({ code: IDS.code, roomId: IDS.tableId, openedAt }, cardsRules, { state: fromCheckpoint(IDS, FAST, store.record.checkpoint), journal: [], acknowledged: [] }, deps(store, () => Date.now()));
    const replies: ReplyFrame[] = [];
    let stopped = false;
    let acts = 0;
    // The human calls, checks, bets the minimum or folds in turn, so that hands are played out.
    const human = viewer((type, data) => {
      if (stopped) return;
      // Busted: the human buys in again.
      if (type === 'standings' && data.seats[HUMAN_SEAT].stack === 0) {
        setImmediate(() => live.submit(human, { id: `r-${acts++}`, type: 'table.rebuy', data: {} }, { at: Date.now(), hr: performance.now() }));
      }
      if (type !== 'time_bank' || data.seat !== HUMAN_SEAT) return;
      const state = live.snapshot;
      if (state.handsPlayed >= 3 && store.record.actions.length > 0) {
        stopped = true;
        return;
      }
      const o = optionsFor(state.hand!, HUMAN_SEAT, state.seats[HUMAN_SEAT].stack);
      const pick = acts++ % 4;
      const data2 =
        pick === 0 && o.canBet ? { action: 'bet', amount: Math.min(o.minTotal, o.maxTotal) } : pick === 3 && o.toCall > 0 ? { action: 'fold' } : o.toCall > 0 ? { action: 'call' } : { action: 'check' };
      setImmediate(() => live.submit(human, { id: `c-${acts}`, type: 'table.act', data: data2 }, { at: Date.now(), hr: performance.now() }));
    }, replies);
    expect(live.attach(human)).toEqual({ ok: true });
    try {
      await until(() => stopped);
    } finally {
      live.dispose();
    }
    const stoppedAt = live.snapshot;
    expect(stoppedAt.hand!.toAct).toBe(HUMAN_SEAT);
    expect(store.record.checkpoint.number).toBeGreaterThanOrEqual(3);
    expect(replies.every((r) => r.status === 200)).toBe(true);

    // The bots' actions since the last human action were never written: the restored table takes
    // them again on their own schedule, from the moment of that action.
    const lastAt = Math.max(...store.record.actions.map((a) => a.at));
    // On a busy machine the live table may itself have taken a deadline late (its clock is real);
    // the restored one, on a clock stopped at the last action, must not take any.
    const lateBefore = store.record.lateDeadlines;
    const restored: Actor = RoomActor.restore({ code: IDS.code, roomId: IDS.tableId, openedAt }, cardsRules, restoreCards(store.record), deps(store, () => lastAt));
    try {
      await until(() => restored.snapshot.hand?.actions === stoppedAt.hand!.actions);
    } finally {
      restored.dispose();
    }
    expect(restored.snapshot).toEqual(resumed(stoppedAt));
    expect(store.record.lateDeadlines).toEqual(lateBefore);

    // An acknowledged command sent again gets its original reply and is not executed twice.
    const again: ReplyFrame[] = [];
    const back = viewer(() => undefined, again);
    const third: Actor = RoomActor.restore({ code: IDS.code, roomId: IDS.tableId, openedAt }, cardsRules, restoreCards(store.record), deps(store, () => lastAt));
    try {
      third.attach(back);
      const lastId = store.record.actions[store.record.actions.length - 1].commandId;
      const firstId = store.record.acknowledged[0].commandId;
      third.submit(back, { id: lastId, type: 'table.act', data: { action: 'fold' } }, { at: lastAt, hr: performance.now() });
      third.submit(back, { id: firstId, type: 'table.act', data: { action: 'fold' } }, { at: lastAt, hr: performance.now() });
      expect(again).toEqual([
        { type: 'reply', id: lastId, status: 200, data: {} },
        { type: 'reply', id: firstId, status: 200, data: store.record.acknowledged[0].reply },
      ]);
      expect(third.snapshot.hand!.actions).toBe(store.record.actions[store.record.actions.length - 1].seq + 1);
    } finally {
      third.dispose();
    }
  });

  it('replays a human action taken in the very millisecond its turn began, after the deadline that began it', () => {
    // Run the table by its deadlines alone up to the human's first turn.
    let state = fromCheckpoint(IDS, FAST, openingCheckpoint(FAST, 1_000_000));
    while (!(state.phase === 'playing' && state.hand!.toAct === HUMAN_SEAT)) state = cardsRules.onSignal(state, { kind: 'deadline' }, { now: cardsRules.nextDeadline(state)!, random: Math.random }).state;
    const turnAt = state.hand!.turnAt;
    const live = cardsRules.decide(state, { role: 'player', seat: PLAYER_ID }, { id: 'c-1', type: 'table.act', data: { action: 'fold' } }, { now: turnAt, random: Math.random });
    const record = recordWrite(openedRecord(IDS, FAST, openingCheckpoint(FAST, 1_000_000)), live.writes[0]);
    const logged: string[] = [];
    const store = { record };
    const restored: Actor = RoomActor.restore({ code: IDS.code, roomId: IDS.tableId, openedAt: 0 }, cardsRules, restoreCards(record), {
      ...deps(store, () => turnAt),
      log: (_level, msg) => void logged.push(msg),
    });
    restored.dispose();
    expect(logged).toEqual([]);
    expect(restored.snapshot).toEqual(resumed(live.state));
  });

  it('takes an action that arrives a hair before its turn began (a timer fired early) at the turn’s moment', () => {
    let state = fromCheckpoint(IDS, FAST, openingCheckpoint(FAST, 1_000_000));
    while (!(state.phase === 'playing' && state.hand!.toAct === HUMAN_SEAT)) state = cardsRules.onSignal(state, { kind: 'deadline' }, { now: cardsRules.nextDeadline(state)!, random: Math.random }).state;
    const turnAt = state.hand!.turnAt;
    const early = cardsRules.decide(state, { role: 'player', seat: PLAYER_ID }, { id: 'c-1', type: 'table.act', data: { action: 'fold' } }, { now: turnAt - 1, random: Math.random });
    expect(early.writes[0]).toMatchObject({ kind: 'act', at: turnAt });
    const record = recordWrite(openedRecord(IDS, FAST, openingCheckpoint(FAST, 1_000_000)), early.writes[0]);
    const restored: Actor = RoomActor.restore({ code: IDS.code, roomId: IDS.tableId, openedAt: 0 }, cardsRules, restoreCards(record), deps({ record }, () => turnAt));
    restored.dispose();
    expect(restored.snapshot).toEqual(resumed(early.state));
  });

  it('restores a closed table as closed, and a table between hands at its checkpoint', () => {
    const record = openedRecord(IDS, FAST, openingCheckpoint(FAST, 1000));
    const between = restoreCards(record);
    expect(between.state).toMatchObject({ phase: 'between', handsPlayed: 0, nextHandAt: 1000 + FAST.handPauseMs });
    expect(between.journal).toEqual([]);
    const closed = restoreCards(recordWrite(record, { kind: 'closeTable', tableId: 'table-1', reason: 'left', at: 2000, commandId: 'l-1' }));
    expect(closed.state.phase).toBe('closed');
    expect(closed.acknowledged).toEqual([{ actor: { role: 'player', seat: PLAYER_ID }, reply: { type: 'reply', id: 'l-1', status: 200, data: {} } }]);
  });
});
