import { Actor } from '@app/room-engine';
import { minRaiseOf, potOf } from './cards.betting';
import { HUMAN_SEAT } from './cards.rules';
import { CardsState, TableSettings } from './cards.types';

/** The rules a client is shown, in `table.rules` and inside every snapshot. */
export function publicRules(settings: TableSettings): { smallBlind: number; bigBlind: number; buyIn: number; actionSeconds: number } {
  return { smallBlind: settings.smallBlind, bigBlind: settings.bigBlind, buyIn: settings.buyIn, actionSeconds: settings.actionSeconds };
}

/**
 * The table as one viewer may see it (`table.snapshot`). The board holds only what was dealt.
 * `yourCards` is there only for the human's own seat. No other hole card is ever shown, whether
 * folded or not.
 */
export function viewTable(state: CardsState, viewer: Actor, now: number): Record<string, unknown> {
  const isHuman = viewer.role === 'player' && viewer.seat === state.playerId;
  const hand = state.hand;
  const view: Record<string, unknown> = {
    code: state.code,
    phase: state.phase,
    you: { role: viewer.role, ...(isHuman ? { seat: HUMAN_SEAT } : {}) },
    rules: publicRules(state.settings),
    seats: state.seats.map((s) => {
      const p = hand?.players.find((x) => x.seat === s.seat);
      return {
        seat: s.seat,
        name: s.name,
        human: s.human,
        stack: s.stack,
        committed: p?.committed ?? 0,
        folded: p?.folded ?? false,
        allIn: p?.allIn ?? false,
        connected: s.connected,
        buyInTotal: s.buyInTotal,
      };
    }),
    handsPlayed: state.handsPlayed,
    serverTime: now,
  };
  if (state.phase === 'between' && state.nextHandAt !== undefined) view.nextHandAt = state.nextHandAt;
  if (hand && state.phase === 'playing') {
    view.hand = {
      number: hand.number,
      button: hand.button,
      street: hand.street,
      board: [...hand.board],
      pot: potOf(hand),
      currentBet: hand.currentBet,
      minRaise: minRaiseOf(hand),
      toAct: hand.toAct,
      actionDeadline: hand.actionDeadline,
    };
    const own = hand.players.find((p) => p.seat === HUMAN_SEAT);
    if (isHuman && own) view.yourCards = [...own.cards];
  }
  return view;
}

/** The table as anyone may see it (`GET /api/tables/{code}`): seats, stacks and hands played, but never a card. */
export function publicTableSummary(state: CardsState): Record<string, unknown> {
  return {
    code: state.code,
    phase: state.phase,
    rules: publicRules(state.settings),
    handsPlayed: state.handsPlayed,
    seats: state.seats.map((s) => ({
      seat: s.seat,
      name: s.name,
      human: s.human,
      stack: s.stack,
      buyInTotal: s.buyInTotal,
      hands: s.hands,
      connected: s.connected,
    })),
  };
}
