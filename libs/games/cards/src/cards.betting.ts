import { refuse, CardsErrorCode } from './cards.errors';
import { ActionKind, HandState, SeatInHand } from './cards.types';

/** An action found legal. It says where the action leaves the seat's `committed`, and how many chips it moves. */
export interface Move {
  readonly seat: number;
  readonly action: ActionKind;
  /** The seat's `committed` after the action. */
  readonly to: number;
  /** The chips that go from the stack into the pot. */
  readonly chips: number;
}

/** What a seat may do now, for bots and pages. The amounts are totals for the street. */
export interface Options {
  readonly toCall: number;
  readonly canCheck: boolean;
  readonly canBet: boolean;
  readonly canRaise: boolean;
  /** The smallest total a bet or raise may reach. An all-in for less is still allowed. */
  readonly minTotal: number;
  /** Everything the seat has, which is its all-in total. */
  readonly maxTotal: number;
}

export function playerOf(hand: HandState, seat: number): SeatInHand {
  const p = hand.players.find((x) => x.seat === seat);
  if (!p) throw new Error(`seat ${seat} is not in hand ${hand.number}`);
  return p;
}

export const isActive = (p: SeatInHand) => !p.folded && !p.allIn;

export function potOf(hand: HandState): number {
  return hand.players.reduce((sum, p) => sum + p.totalIn, 0);
}

/** The smallest total a raise may reach, which is the current bet plus the last full bet or raise. */
export function minRaiseOf(hand: HandState): number {
  return hand.currentBet + hand.lastRaise;
}

export function optionsFor(hand: HandState, seat: number, stack: number): Options {
  const p = playerOf(hand, seat);
  const toCall = Math.max(0, hand.currentBet - p.committed);
  const maxTotal = p.committed + stack;
  return {
    toCall,
    canCheck: toCall === 0,
    canBet: hand.currentBet === 0 && stack > 0,
    canRaise: hand.currentBet > 0 && maxTotal > hand.currentBet && !hand.raiseClosed.includes(seat),
    minTotal: minRaiseOf(hand),
    maxTotal,
  };
}

/**
 * Checks an action of the seat to act against the rules of no-limit hold'em, and says what the
 * action does. An action the situation does not allow (a check facing a bet, or a raise when the
 * betting was not reopened) gets 409 illegal_action. A total under the minimum raise or over the
 * stack gets 400 bad_amount. The caller has already checked whose turn it is.
 */
export function legalMove(hand: HandState, seat: number, stack: number, action: ActionKind, amount?: number): Move {
  const p = playerOf(hand, seat);
  const o = optionsFor(hand, seat, stack);
  const move = (to: number): Move => ({ seat, action, to, chips: to - p.committed });
  switch (action) {
    case 'fold':
      return move(p.committed);
    case 'check':
      if (!o.canCheck) refuse(CardsErrorCode.IllegalAction, `you cannot check facing a bet of ${hand.currentBet}: call, raise or fold`);
      return move(p.committed);
    case 'call':
      if (o.toCall === 0) refuse(CardsErrorCode.IllegalAction, 'there is nothing to call: check');
      return move(Math.min(hand.currentBet, o.maxTotal));
    case 'bet':
      if (hand.currentBet > 0) refuse(CardsErrorCode.IllegalAction, `there is already a bet of ${hand.currentBet}: raise`);
      return move(sized(amount, o, 'bet'));
    case 'raise':
      if (hand.currentBet === 0) refuse(CardsErrorCode.IllegalAction, 'there is no bet to raise: bet');
      if (hand.raiseClosed.includes(seat))
        refuse(CardsErrorCode.IllegalAction, 'an all-in short of a full raise did not reopen the betting: call or fold');
      if (o.maxTotal <= hand.currentBet) refuse(CardsErrorCode.IllegalAction, 'your stack covers no more than a call');
      return move(sized(amount, o, 'raise'));
    case 'all_in':
      if (o.maxTotal > hand.currentBet && hand.raiseClosed.includes(seat)) {
        refuse(CardsErrorCode.IllegalAction, 'an all-in short of a full raise did not reopen the betting: call or fold');
      }
      return move(o.maxTotal);
  }
}

function sized(amount: number | undefined, o: Options, what: 'bet' | 'raise'): number {
  if (amount === undefined) refuse(CardsErrorCode.BadAmount, `a ${what} needs an amount: the total you put in this street`);
  if (amount > o.maxTotal) refuse(CardsErrorCode.BadAmount, `${amount} is over your stack: at most ${o.maxTotal}`);
  // An amount under the minimum is allowed only as an all-in.
  if (amount < o.minTotal && amount !== o.maxTotal)
    refuse(CardsErrorCode.BadAmount, `a ${what} must reach at least ${o.minTotal} (or be all in)`);
  return amount;
}

/**
 * Returns the hand after a legal move. A bet or a full raise reopens the betting for every other
 * seat still able to act. An all-in short of a full raise makes those seats respond too, but the
 * ones that had acted since the last full raise may then only call or fold.
 */
export function applyMove(hand: HandState, move: Move, stackAfter: number): HandState {
  const players = hand.players.map((p) =>
    p.seat !== move.seat
      ? p
      : {
          ...p,
          committed: move.to,
          totalIn: p.totalIn + move.chips,
          folded: move.action === 'fold',
          allIn: move.action !== 'fold' && stackAfter === 0,
        },
  );
  const others = players.filter((p) => p.seat !== move.seat && isActive(p)).map((p) => p.seat);
  let next: HandState = { ...hand, players, actions: hand.actions + 1 };
  const pending = hand.pending.filter((s) => s !== move.seat);
  const raiseClosed = hand.raiseClosed.filter((s) => s !== move.seat);
  if (move.action !== 'fold' && move.to > hand.currentBet) {
    const increase = move.to - hand.currentBet;
    if (increase >= hand.lastRaise) {
      next = { ...next, currentBet: move.to, lastRaise: increase, pending: others, raiseClosed: [], lastAggressor: move.seat };
    } else {
      const acted = others.filter((s) => !pending.includes(s));
      next = {
        ...next,
        currentBet: move.to,
        pending: others,
        raiseClosed: [...new Set([...raiseClosed, ...acted])],
        lastAggressor: move.seat,
      };
    }
  } else {
    next = { ...next, pending: pending.filter((s) => others.includes(s)), raiseClosed };
  }
  return next;
}

/** Whether the street's betting is over: nobody has to act, or only one seat could act and it faces no bet. */
export function bettingDone(hand: HandState): boolean {
  const active = hand.players.filter(isActive);
  const pending = hand.pending.filter((s) => active.some((p) => p.seat === s));
  if (pending.length === 0) return true;
  return active.length === 1 && active[0].committed >= hand.currentBet;
}

/** The next seat after `from`, going the way the button moves, that still has to act. */
export function nextToAct(hand: HandState, from: number, seatCount: number): number | null {
  for (let i = 1; i <= seatCount; i++) {
    const seat = (from + i) % seatCount;
    if (hand.pending.includes(seat) && hand.players.some((p) => p.seat === seat && isActive(p))) return seat;
  }
  return null;
}
