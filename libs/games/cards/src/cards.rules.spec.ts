import { dealt, eventsOf, HUMAN, humanAct, play, refusal, seatAct, SPECTATOR, table, T0, ctx } from '../test/cards.fixtures';
import { cardsRules } from './cards.game';
import { buyInsOf, chipsAtTable, HUMAN_SEAT, onDeadline, startHand } from './cards.rules';
import { CardsState, Outcome } from './cards.types';

const last = (outcomes: Outcome[]) => outcomes[outcomes.length - 1];
/** What the engine reads of an outcome besides its state and events. Flags that are absent are left out. */
const flagsOf = ({ durable, boundary, finished }: Outcome) => ({
  ...(durable ? { durable } : {}),
  ...(boundary ? { boundary } : {}),
  ...(finished ? { finished } : {}),
});
const conserved = (s: CardsState) => expect(chipsAtTable(s)).toBe(buyInsOf(s));

describe('card table rules', () => {
  describe('blinds and the button', () => {
    it('posts the blinds left of the button and gives the first turn left of the big blind', () => {
      const o = dealt({ button: 0 });
      expect(eventsOf(o, 'hand.started')[0]).toMatchObject({
        number: 1,
        button: 0,
        blinds: [
          { seat: 1, amount: 1 },
          { seat: 2, amount: 2 },
        ],
        pot: 3,
        currentBet: 2,
        minRaise: 4,
      });
      expect(o.state.hand!.toAct).toBe(3);
      expect(o.state.seats.map((s) => s.stack)).toEqual([200, 199, 198, 200, 200, 200]);
      expect(flagsOf(o)).toEqual({});
    });

    it('moves the button one seat a hand, after the pause', () => {
      let state = table();
      const buttons: number[] = [];
      for (let i = 0; i < 7; i++) {
        expect(cardsRules.nextDeadline(state)).toBe(state.nextHandAt);
        const started = onDeadline(state, state.nextHandAt!);
        buttons.push(eventsOf(started, 'hand.started')[0].button);
        // Everyone folds to the big blind.
        state = started.state;
        while (state.phase === 'playing') state = seatAct(state, 'fold').state;
        expect(state.nextHandAt).toBe(state.lastHandAt + 2000);
      }
      expect(buttons).toEqual([0, 1, 2, 3, 4, 5, 0]);
    });

    it('heads-up, the button posts the small blind and acts first before the flop, last after it', () => {
      const o = dealt({ settings: { bots: 1 }, button: 0 });
      expect(eventsOf(o, 'hand.started')[0].blinds).toEqual([
        { seat: 0, amount: 1 },
        { seat: 1, amount: 2 },
      ]);
      expect(o.state.hand!.toAct).toBe(0);
      const [call, check] = play(o.state, ['call'], ['check']);
      expect(call.state.hand!.toAct).toBe(1);
      expect(eventsOf(check, 'street.dealt')[0]).toMatchObject({ street: 'flop' });
      expect(check.state.hand!.toAct).toBe(1);
    });

    it('lets a seat short of the big blind post what it has, all in', () => {
      const o = dealt({ stacks: [200, 200, 1, 200, 200, 200], button: 0 });
      expect(eventsOf(o, 'hand.started')[0].blinds).toEqual([
        { seat: 1, amount: 1 },
        { seat: 2, amount: 1 },
      ]);
      expect(o.state.hand!.players[2].allIn).toBe(true);
      // The minimum raise is still the big blind's size.
      expect(o.state.hand!.currentBet + o.state.hand!.lastRaise).toBe(3);
    });
  });

  describe('betting', () => {
    it('makes the minimum raise the last bet or raise size', () => {
      const start = dealt({ button: 0 }).state;
      // UTG raises to 6, a raise of 4, so the next raise must reach 10.
      const raised = seatAct(start, 'raise', 6);
      expect(eventsOf(raised, 'action.applied')[0]).toMatchObject({ seat: 3, action: 'raise', amount: 6, pot: 9, currentBet: 6, toAct: 4 });
      expect(refusal(() => seatAct(raised.state, 'raise', 9))).toEqual({ code: 'bad_amount', status: 400 });
      const reraised = seatAct(raised.state, 'raise', 10);
      expect(reraised.state.hand!.currentBet + reraised.state.hand!.lastRaise).toBe(14);
    });

    it('refuses what the situation does not allow with 409 and amounts out of range with 400, changing nothing', () => {
      // With the button at 3 and the blinds at 4 and 5, the human at seat 0 is under the gun.
      const start = dealt({ button: 3 }).state;
      expect(start.hand!.toAct).toBe(0);
      expect(refusal(() => humanAct(start, 'check'))).toEqual({ code: 'illegal_action', status: 409 });
      expect(refusal(() => humanAct(start, 'bet', 10))).toEqual({ code: 'illegal_action', status: 409 });
      expect(refusal(() => humanAct(start, 'raise'))).toEqual({ code: 'bad_amount', status: 400 });
      expect(refusal(() => humanAct(start, 'raise', 3))).toEqual({ code: 'bad_amount', status: 400 });
      expect(refusal(() => humanAct(start, 'raise', 201))).toEqual({ code: 'bad_amount', status: 400 });
      // An all-in for less than a minimum raise is still allowed as a raise to everything.
      expect(humanAct(start, 'raise', 200).state.hand!.players[0].allIn).toBe(true);
      const limped = humanAct(start, 'call').state;
      const flop = play(limped, ['call'], ['call'], ['call'], ['call'], ['check']);
      const onFlop = last(flop).state;
      expect(onFlop.hand!.street).toBe('flop');
      // After the flop, nobody has bet yet, so the first seat left of the button (4) acts.
      expect(onFlop.hand!.toAct).toBe(4);
      const [, afterCheck] = play(onFlop, ['check'], ['check']);
      expect(afterCheck.state.hand!.toAct).toBe(0);
      expect(refusal(() => humanAct(afterCheck.state, 'raise', 4))).toEqual({ code: 'illegal_action', status: 409 });
      expect(refusal(() => humanAct(afterCheck.state, 'call'))).toEqual({ code: 'illegal_action', status: 409 });
      expect(refusal(() => humanAct(afterCheck.state, 'bet', 1))).toEqual({ code: 'bad_amount', status: 400 });
      expect(humanAct(afterCheck.state, 'bet', 2).state.hand!.currentBet).toBe(2);
    });

    it('refuses a human who acts out of turn or after its clock ran out with 409 not_your_turn', () => {
      const start = dealt({ button: 0 }).state;
      expect(refusal(() => humanAct(start, 'fold'))).toEqual({ code: 'not_your_turn', status: 409 });
      const humanTurn = last(play(start, ['fold'], ['fold'], ['fold'])).state;
      expect(humanTurn.hand!.toAct).toBe(0);
      expect(refusal(() => humanAct(humanTurn, 'call', undefined, humanTurn.hand!.actionDeadline! + 1))).toEqual({
        code: 'not_your_turn',
        status: 409,
      });
      expect(humanAct(humanTurn, 'call', undefined, humanTurn.hand!.actionDeadline!).state.hand!.toAct).toBe(1);
      expect(refusal(() => humanAct(table(), 'check'))).toEqual({ code: 'not_your_turn', status: 409 });
    });

    it('does not reopen the betting after an all-in short of a full raise', () => {
      // SB (seat 1) has 14 chips in all.
      const start = dealt({ stacks: [200, 14, 200, 200, 200, 200], button: 0 }).state;
      const [, , , , shove] = play(start, ['raise', 10], ['fold'], ['fold'], ['call'], ['all_in']);
      // 14 is a raise of 4 over 10, which is short of the last raise (8).
      expect(eventsOf(shove, 'action.applied')[0]).toMatchObject({ seat: 1, action: 'all_in', amount: 14, currentBet: 14 });
      const bbFolds = seatAct(shove.state, 'fold').state;
      expect(bbFolds.hand!.toAct).toBe(3);
      expect(refusal(() => seatAct(bbFolds, 'raise', 30))).toEqual({ code: 'illegal_action', status: 409 });
      expect(refusal(() => seatAct(bbFolds, 'all_in'))).toEqual({ code: 'illegal_action', status: 409 });
      const utgCalls = seatAct(bbFolds, 'call').state;
      expect(refusal(() => humanAct(utgCalls, 'raise', 30))).toEqual({ code: 'illegal_action', status: 409 });
      const flop = humanAct(utgCalls, 'call');
      expect(eventsOf(flop, 'street.dealt')[0].street).toBe('flop');
      conserved(flop.state);
    });

    it('reopens the betting after an all-in that is a full raise', () => {
      const start = dealt({ stacks: [200, 30, 200, 200, 200, 200], button: 0 }).state;
      const [, , , , shove] = play(start, ['raise', 10], ['fold'], ['fold'], ['call'], ['all_in']);
      // 30 is a raise of 20 over 10, so the next raise must reach 50.
      const bbFolds = seatAct(shove.state, 'fold').state;
      expect(refusal(() => seatAct(bbFolds, 'raise', 49))).toEqual({ code: 'bad_amount', status: 400 });
      expect(seatAct(bbFolds, 'raise', 50).state.hand!.currentBet).toBe(50);
    });

    it('keeps the raise right of a seat that had not acted yet when a short all-in came', () => {
      // UTG raises to 10, and seat 4 shoves a short 14 before seat 5 has acted, so seat 5 may still raise.
      const start = dealt({ stacks: [200, 200, 200, 200, 14, 200], button: 0 }).state;
      const [, shove] = play(start, ['raise', 10], ['all_in']);
      expect(shove.state.hand!.toAct).toBe(5);
      expect(seatAct(shove.state, 'raise', 22).state.hand!.currentBet).toBe(22);
    });
  });

  describe('the showdown', () => {
    it('forms side pots from three all-ins of different sizes, shows in the order of the last aggression, and rebuys a busted bot', () => {
      const o = dealt({
        settings: { bots: 3 },
        stacks: [300, 50, 120, 300],
        button: 0,
        hole: { 0: ['Jc', 'Jd'], 1: ['Ac', 'Ad'], 2: ['Qc', 'Qd'], 3: ['Kc', 'Kd'] },
        board: ['2c', '7d', '9h', '4s', '3h'],
      });
      // UTG (3) shoves 300, the human calls all in, the blinds call all in for less.
      const [, , , end] = play(o.state, ['all_in'], ['all_in'], ['all_in'], ['all_in']);
      expect(eventsOf(end, 'street.dealt').map((e) => e.street)).toEqual(['flop', 'turn', 'river']);
      const finished = eventsOf(end, 'hand.finished')[0];
      expect(finished.pots).toEqual([
        { amount: 200, winners: [{ seat: 1, amount: 200 }] },
        { amount: 210, winners: [{ seat: 3, amount: 210 }] },
        { amount: 360, winners: [{ seat: 3, amount: 360 }] },
      ]);
      expect(finished.shown.map((s: any) => s.seat)).toEqual([3, 0, 1, 2]);
      expect(finished.shown[0]).toEqual({ seat: 3, cards: ['Kc', 'Kd'], rank: "Pair, K's" });
      expect(finished.stacks).toEqual([
        { seat: 0, stack: 0 },
        { seat: 1, stack: 200 },
        { seat: 2, stack: 0 },
        { seat: 3, stack: 570 },
      ]);
      // The busted bot buys in again, and the busted human waits for a rebuy.
      expect(end.state.seats[2]).toMatchObject({ stack: 200, buyInTotal: 320 });
      expect(end.state.phase).toBe('waiting');
      conserved(end.state);
      // The hand's end is a boundary (the engine snapshots the table there), and it reports no finished game.
      expect(flagsOf(end)).toEqual({ boundary: true });
      expect(end.state).toMatchObject({ handsPlayed: 1, button: 0, lastHandAt: T0 });
      expect(end.state.hand).toBeUndefined();
    });

    it('splits a pot with the odd chip to the first winner left of the button', () => {
      const o = dealt({
        settings: { bots: 2 },
        button: 0,
        hole: { 0: ['2c', '3d'], 1: ['4c', '5d'], 2: ['2d', '3c'] },
        board: ['Th', 'Jh', 'Qh', 'Kh', 'Ah'],
      });
      // The human on the button calls, the small blind folds and the big blind checks, which makes a pot of 5.
      const outcomes = play(o.state, ['call'], ['fold'], ['check'], ['check'], ['check'], ['check'], ['check'], ['check'], ['check']);
      const finished = eventsOf(last(outcomes), 'hand.finished')[0];
      // Left of the button sit seat 1 (folded), then seat 2, then the human.
      expect(finished.pots).toEqual([
        {
          amount: 5,
          winners: [
            { seat: 2, amount: 3 },
            { seat: 0, amount: 2 },
          ],
        },
      ]);
      // Everyone checked to the river, so the first live seat left of the button shows first. The
      // folded seat never shows.
      expect(finished.shown.map((s: any) => s.seat)).toEqual([2, 0]);
    });

    it('gives an uncontested pot to the last seat in and shows nothing', () => {
      const start = dealt({ button: 0 }).state;
      const end = last(play(start, ['raise', 6], ['fold'], ['fold'], ['fold'], ['fold'], ['fold']));
      expect(eventsOf(end, 'hand.finished')[0]).toMatchObject({
        number: 1,
        pots: [{ amount: 9, winners: [{ seat: 3, amount: 9 }] }],
        shown: [],
      });
      expect(eventsOf(end, 'standings')[0].seats[3]).toMatchObject({ seat: 3, stack: 203, net: 3, hands: 1 });
    });
  });

  describe('clocks and bots', () => {
    it('lets a bot act at the end of a think time drawn from botThinkMs, with no flag', () => {
      const o = dealt({ button: 0 });
      const hand = o.state.hand!;
      expect(eventsOf(o, 'time_bank')).toEqual([{ seat: 3, remainingMs: 15_000 }]);
      expect(hand.botActsAt! - hand.turnAt).toBeGreaterThanOrEqual(400);
      expect(hand.botActsAt! - hand.turnAt).toBeLessThanOrEqual(1500);
      expect(cardsRules.nextDeadline(o.state)).toBe(hand.botActsAt);
      // Nothing happens a millisecond early.
      expect(onDeadline(o.state, hand.botActsAt! - 1).state).toBe(o.state);
      const acted = onDeadline(o.state, hand.botActsAt!);
      expect(eventsOf(acted, 'action.applied')[0].seat).toBe(3);
      expect(flagsOf(acted)).toEqual({});
    });

    it('checks for a human whose clock runs out when it can, and folds it otherwise', () => {
      // The human is in the big blind (the button is at 4) and everyone limps. When the human's clock
      // runs out, the table checks for it.
      const limped = last(play(dealt({ button: 4 }).state, ['call'], ['call'], ['call'], ['call'], ['call'])).state;
      expect(limped.hand!.toAct).toBe(HUMAN_SEAT);
      const checked = onDeadline(limped, limped.hand!.actionDeadline!);
      expect(eventsOf(checked, 'action.applied')[0]).toMatchObject({ seat: 0, action: 'check', timeout: true });
      expect(flagsOf(checked)).toEqual({});
      // The human on the button facing the big blind folds.
      const facing = last(play(dealt({ button: 0 }).state, ['fold'], ['fold'], ['fold'])).state;
      const folded = onDeadline(facing, facing.hand!.actionDeadline!);
      expect(eventsOf(folded, 'action.applied')[0]).toMatchObject({ seat: 0, action: 'fold', timeout: true });
    });
  });

  describe('boundaries', () => {
    it("marks a hand's end as a boundary, whoever's action ended it, and nothing else", () => {
      const facing = last(play(dealt({ button: 0 }).state, ['fold'], ['fold'], ['fold'])).state;
      const raised = humanAct(facing, 'raise', 8, T0 + 5, 'c-1');
      expect(flagsOf(raised)).toEqual({});
      expect(raised.reply).toEqual({});
      // Both blinds fold, so the hand ends on a bot's action.
      const [first, end] = play(raised.state, ['fold'], ['fold']);
      expect(flagsOf(first)).toEqual({});
      expect(flagsOf(end)).toEqual({ boundary: true });
      // A human fold that ends the hand is also the hand's boundary.
      const headsUp = dealt({ settings: { bots: 1 }, button: 0 }).state;
      const fold = humanAct(headsUp, 'fold', undefined, T0 + 9, 'c-2');
      expect(flagsOf(fold)).toEqual({ boundary: true });
      expect(fold.state).toMatchObject({ phase: 'between', handsPlayed: 1, lastHandAt: T0 + 9, nextHandAt: T0 + 9 + 2000 });
    });

    it('leaves a table between hands as plain JSON: no hand, no key without a value', () => {
      const fold = humanAct(dealt({ settings: { bots: 1 }, button: 0 }).state, 'fold', undefined, T0 + 9, 'c-2');
      expect(Object.entries(fold.state).filter(([, v]) => v === undefined)).toEqual([]);
      expect(JSON.parse(JSON.stringify(fold.state))).toEqual(fold.state);
    });
  });

  describe('rebuys, leaving and closing', () => {
    function busted(): CardsState {
      const o = dealt({
        settings: { bots: 1 },
        button: 0,
        hole: { 0: ['2c', '7d'], 1: ['Ac', 'Ad'] },
        board: ['Kc', 'Qd', '9h', '4s', '3h'],
      });
      return last(play(o.state, ['all_in'], ['call'])).state;
    }

    it('lets a busted human buy in again between hands, and then deals on', () => {
      const state = busted();
      expect(state.phase).toBe('waiting');
      expect(cardsRules.nextDeadline(state)).toBe(state.lastHandAt + 300_000);
      const rebuy = cardsRules.decide(state, HUMAN, { id: 'r-1', type: 'table.rebuy', data: {} }, ctx(state.lastHandAt + 10));
      expect(rebuy.reply).toEqual({ stack: 200 });
      expect(flagsOf(rebuy)).toEqual({});
      expect(rebuy.state).toMatchObject({ phase: 'between', nextHandAt: state.lastHandAt + 2010 });
      expect(rebuy.state.seats[0]).toMatchObject({ stack: 200, buyInTotal: 400 });
      conserved(rebuy.state);
      expect(eventsOf(onDeadline(rebuy.state, rebuy.state.nextHandAt!), 'hand.started')[0].number).toBe(2);
      expect(refusal(() => cardsRules.decide(rebuy.state, HUMAN, { id: 'r-2', type: 'table.rebuy', data: {} }, ctx(T0)))).toEqual({
        code: 'has_chips',
        status: 409,
      });
    });

    it('refuses a rebuy while a hand is on', () => {
      expect(refusal(() => cardsRules.decide(dealt().state, HUMAN, { id: 'r', type: 'table.rebuy', data: {} }, ctx(T0)))).toEqual({
        code: 'not_between_hands',
        status: 409,
      });
    });

    it('closes a table whose busted human does not buy in again', () => {
      const state = busted();
      const closed = onDeadline(state, state.expiresAt!);
      expect(closed.state.phase).toBe('closed');
      expect(cardsRules.nextDeadline(closed.state)).toBeUndefined();
      expect(closed.effects).toEqual([{ kind: 'close', reason: 'expired' }]);
      expect(eventsOf(closed, 'table.closed')).toEqual([{ reason: 'expired' }]);
    });

    it('closes the table when the human leaves, releasing its seat', () => {
      const left = cardsRules.decide(dealt().state, HUMAN, { id: 'l', type: 'table.leave', data: {} }, ctx(T0 + 3));
      expect(left.effects).toEqual([
        { kind: 'release', seats: ['player-1'] },
        { kind: 'close', reason: 'left' },
      ]);
      expect(left.state.hand).toBeUndefined();
      expect(cardsRules.isOver(left.state)).toBe(true);
    });

    it('refuses a player that is not the table’s human', () => {
      expect(
        refusal(() =>
          cardsRules.decide(dealt().state, { role: 'player', seat: 'someone' }, { id: 'x', type: 'table.leave', data: {} }, ctx(T0)),
        ),
      ).toEqual({ code: 'seat_gone', status: 409 });
      expect(cardsRules.admit(table(), { role: 'player', seat: 'someone' })).toEqual({ closeCode: 4003, reason: expect.any(String) });
      expect(cardsRules.admit(table(), SPECTATOR)).toBeNull();
    });
  });

  describe('the snapshot', () => {
    it('shows the human its own cards and a spectator none, and never the undealt board', () => {
      const state = dealt({ button: 0 }).state;
      const mine = cardsRules.view(state, HUMAN, T0) as any;
      expect(mine.yourCards).toEqual([...state.hand!.players[0].cards]);
      expect(mine.you).toEqual({ role: 'player', seat: 0 });
      expect(mine.hand).toMatchObject({ number: 1, button: 0, street: 'preflop', board: [], pot: 3, currentBet: 2, minRaise: 4, toAct: 3 });
      const theirs = cardsRules.view(state, SPECTATOR, T0) as any;
      expect(theirs.yourCards).toBeUndefined();
      expect(JSON.stringify(theirs)).not.toMatch(/"[2-9TJQKA][shdc]"/);
      expect(theirs.seats[1]).toEqual({
        seat: 1,
        name: 'Bot 1',
        human: false,
        stack: 199,
        committed: 1,
        folded: false,
        allIn: false,
        connected: false,
        buyInTotal: 200,
      });
    });
  });

  it('deals the same hand from the same seed and hand number, whatever the time', () => {
    const a = startHand(table({ seed: 9 }), T0 + 2000).state.hand!;
    const b = startHand(table({ seed: 9 }, T0 + 777_777), T0 + 999_999).state.hand!;
    expect(b.deck).toEqual(a.deck);
    expect(startHand(table({ seed: 10 }), T0).state.hand!.deck).not.toEqual(a.deck);
  });
});
