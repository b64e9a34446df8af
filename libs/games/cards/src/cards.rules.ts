import { RoomErrorCode } from '@app/protocol';
import { Actor, RoomEvent, seededRandom, unchanged } from '@app/room-engine';
import { applyMove, bettingDone, isActive, legalMove, minRaiseOf, nextToAct, playerOf, potOf } from './cards.betting';
import { chooseBotAction } from './cards.bot';
import { TableCommand } from './cards.commands';
import { dealHand, deckFor } from './cards.deck';
import { CardsErrorCode, refuse } from './cards.errors';
import { HandEvaluator, pokersolverEvaluator } from './cards.evaluator';
import { awardPots, AwardedPot, formPots } from './cards.pots';
import {
  ActionKind,
  Card,
  CardsState,
  HandCheckpoint,
  HandState,
  Outcome,
  SeatInHand,
  Street,
  TableSeat,
  TableSettings,
} from './cards.types';

// The card table's rules are pure functions of (state, input, now), with no clock reads and no I/O.
// Every draw comes from the table's seed. Each hand's deck comes from (seed, hand number), and each
// bot's choice and think time from (seed, hand number, the action's place in the hand). So the same
// seed and the same human actions give the same hands, whatever the timing, and a replay after a
// restart rebuilds them from the human's journaled commands alone. States are plain JSON.

/** The human sits at seat 0, and the bots at seats 1 to `bots`. */
export const HUMAN_SEAT = 0;

const evaluator: HandEvaluator = pokersolverEvaluator;

export interface TableIds {
  readonly tableId: string;
  readonly code: string;
  readonly playerId: string;
}

/** What opening a table takes: its ids (the human's seat id is the one the engine gave), its settings, and the time. */
export interface CardsOpening extends TableIds {
  readonly settings: TableSettings;
  readonly openedAt: number;
}

/** The first checkpoint of a table, opened at `at`: every seat has bought in, and no hand has been played. */
export function openingCheckpoint(settings: TableSettings, at: number): HandCheckpoint {
  const seatCount = settings.bots + 1;
  return {
    number: 0,
    // The button starts on the last seat, so that the first hand's button is seat 0.
    button: seatCount - 1,
    at,
    seats: Array.from({ length: seatCount }, (_, seat) => ({ seat, stack: settings.buyIn, buyInTotal: settings.buyIn, hands: 0 })),
  };
}

/** Rebuilds a table between hands, as a checkpoint left it (at its opening, or at a hand's end). */
export function fromCheckpoint(ids: TableIds, settings: TableSettings, checkpoint: HandCheckpoint): CardsState {
  const seats: TableSeat[] = checkpoint.seats.map((s) => ({
    ...s,
    name: s.seat === HUMAN_SEAT ? settings.name : `Bot ${s.seat}`,
    human: s.seat === HUMAN_SEAT,
    connected: false,
  }));
  const base: CardsState = {
    ...ids,
    settings,
    phase: 'between',
    seats,
    handsPlayed: checkpoint.number,
    button: checkpoint.button,
    lastHandAt: checkpoint.at,
  };
  return afterHand(base, checkpoint.at);
}

/** Opens a new table. Every seat has bought in, and the first hand is dealt after the pause. */
export function openCards(opening: CardsOpening): CardsState {
  const { tableId, code, playerId, settings, openedAt } = opening;
  return fromCheckpoint({ tableId, code, playerId }, settings, openingCheckpoint(settings, openedAt));
}

function afterHand(state: CardsState, now: number): CardsState {
  const rest = withoutHand(state);
  if (state.seats[HUMAN_SEAT].stack === 0) return { ...rest, phase: 'waiting', expiresAt: now + state.settings.idleCloseMs };
  return { ...rest, phase: 'between', nextHandAt: now + pauseMs(state.settings) };
}

/**
 * The table with no hand and no alarm between hands. The keys are left out rather than set to
 * undefined, because a state is its JSON.
 */
function withoutHand(state: CardsState): CardsState {
  const { hand: _hand, nextHandAt: _next, expiresAt: _expires, ...rest } = state;
  return rest;
}

// Every deadline lies at least a millisecond after the moment that sets it, so that inputs and
// deadlines of one millisecond have one order, live and in a replay.
const pauseMs = (s: TableSettings) => Math.max(1, s.handPauseMs);
const clockMs = (s: TableSettings) => Math.max(1, Math.round(s.actionSeconds * 1000));

/** The generator of one hand's bot draws. `slot` is the action's place in the hand. */
function handRandom(state: CardsState, number: number, slot: number): () => number {
  return seededRandom(Math.imul(state.settings.seed | 0, 31) ^ number, slot);
}

/** Decides a command from the human, who is the only seated player. Throws a RoomException to refuse it. */
export function decide(state: CardsState, actor: Actor, command: TableCommand, now: number): Outcome {
  if (state.phase === 'closed') refuse(RoomErrorCode.RoomClosed, 'the table is closed');
  if (actor.role !== 'player' || actor.seat !== state.playerId) refuse(RoomErrorCode.SeatGone, 'this seat is not at the table');
  switch (command.type) {
    case 'table.act':
      return humanAct(state, command.data.action, command.data.amount, now);
    case 'table.rebuy':
      return rebuy(state, now);
    case 'table.leave':
      return leave(state);
  }
}

/**
 * The moment a human input takes effect. It is never before what the table already did, because a
 * timer may fire a hair early.
 */
function effectiveNow(state: CardsState, now: number): number {
  return Math.max(now, state.hand?.turnAt ?? state.lastHandAt);
}

function humanAct(state: CardsState, action: ActionKind, amount: number | undefined, arrivedAt: number): Outcome {
  const hand = state.hand;
  if (state.phase !== 'playing' || !hand || hand.toAct !== HUMAN_SEAT) refuse(CardsErrorCode.NotYourTurn, 'it is not your turn');
  const now = effectiveNow(state, arrivedAt);
  if (hand.actionDeadline !== null && now > hand.actionDeadline) refuse(CardsErrorCode.NotYourTurn, 'your clock ran out');
  return { ...act(state, HUMAN_SEAT, action, amount, now, false), reply: {} };
}

function rebuy(state: CardsState, arrivedAt: number): Outcome {
  if (state.phase !== 'between' && state.phase !== 'waiting')
    refuse(CardsErrorCode.NotBetweenHands, 'you can buy in again only between hands');
  const human = state.seats[HUMAN_SEAT];
  if (human.stack > 0) refuse(CardsErrorCode.HasChips, `you still have ${human.stack} chips`);
  const now = effectiveNow(state, arrivedAt);
  const stack = state.settings.buyIn;
  const seats = state.seats.map((s) => (s.seat === HUMAN_SEAT ? { ...s, stack, buyInTotal: s.buyInTotal + stack } : s));
  const next: CardsState =
    state.phase === 'waiting'
      ? { ...withoutHand(state), seats, phase: 'between', nextHandAt: now + pauseMs(state.settings) }
      : { ...state, seats };
  return {
    state: next,
    events: [standingsEvent(next)],
    effects: [],
    reply: { stack },
  };
}

function leave(state: CardsState): Outcome {
  return {
    state: { ...withoutHand(state), phase: 'closed' },
    events: [{ type: 'table.closed', data: { reason: 'left' } }],
    effects: [
      { kind: 'release', seats: [state.playerId] },
      { kind: 'close', reason: 'left' },
    ],
    reply: {},
  };
}

/**
 * Handles the table's one alarm, which went off at `now`. Either a bot acts, the human's clock runs
 * out, a hand is dealt, or the table expires.
 */
export function onDeadline(state: CardsState, now: number): Outcome {
  const hand = state.hand;
  if (state.phase === 'playing' && hand && hand.toAct !== null) {
    const seat = hand.toAct;
    if (seat !== HUMAN_SEAT && hand.botActsAt !== null && now >= hand.botActsAt) return botAct(state, seat, now);
    if (seat === HUMAN_SEAT && hand.actionDeadline !== null && now >= hand.actionDeadline) {
      // The human is out of time: the seat checks if that costs nothing, and folds otherwise.
      const toCall = hand.currentBet - playerOf(hand, seat).committed;
      return act(state, seat, toCall === 0 ? 'check' : 'fold', undefined, now, true);
    }
  }
  if (state.phase === 'between' && state.nextHandAt !== undefined && now >= state.nextHandAt) return startHand(state, now);
  if (state.phase === 'waiting' && state.expiresAt !== undefined && now >= state.expiresAt) {
    // The engine records that the table closed when it sees the close effect.
    return {
      state: { ...withoutHand(state), phase: 'closed' },
      events: [{ type: 'table.closed', data: { reason: 'expired' } }],
      effects: [{ kind: 'close', reason: 'expired' }],
    };
  }
  return unchanged(state);
}

/**
 * Moves every clock of the table on by `ms`, because the table's writes failed for that long and
 * the engine held its clocks. The seat to act keeps its whole clock: its turn's start, its deadline
 * and a bot's moment to act all move. The pause before the next hand and a waiting table's expiry
 * are kept whole too. The time the last hand finished is a record of the past, so it stays.
 */
export function shiftClocks(state: CardsState, ms: number): CardsState {
  const hand = state.hand;
  switch (state.phase) {
    case 'playing': {
      if (!hand) return state;
      const later = (t: number | null) => (t === null ? null : t + ms);
      return {
        ...state,
        hand: { ...hand, turnAt: hand.turnAt + ms, actionDeadline: later(hand.actionDeadline), botActsAt: later(hand.botActsAt) },
      };
    }
    case 'between':
      return state.nextHandAt === undefined ? state : { ...state, nextHandAt: state.nextHandAt + ms };
    case 'waiting':
      return state.expiresAt === undefined ? state : { ...state, expiresAt: state.expiresAt + ms };
    case 'closed':
      return state;
  }
}

export function nextDeadline(state: CardsState): number | undefined {
  switch (state.phase) {
    case 'playing': {
      const hand = state.hand!;
      if (hand.toAct === null) return undefined;
      return hand.toAct === HUMAN_SEAT ? (hand.actionDeadline ?? undefined) : (hand.botActsAt ?? undefined);
    }
    case 'between':
      return state.nextHandAt;
    case 'waiting':
      return state.expiresAt;
    case 'closed':
      return undefined;
  }
}

function botAct(state: CardsState, seat: number, now: number): Outcome {
  const hand = state.hand!;
  const stack = state.seats[seat].stack;
  const choice = chooseBotAction(hand, seat, stack, state.settings.bigBlind, evaluator, handRandom(state, hand.number, 2 * hand.actions));
  try {
    legalMove(hand, seat, stack, choice.action, choice.amount);
    return act(state, seat, choice.action, choice.amount, now, false);
  } catch {
    // The strategy asked for something the rules refuse, so the bot plays safe instead.
    const toCall = hand.currentBet - playerOf(hand, seat).committed;
    return act(state, seat, toCall === 0 ? 'check' : 'fold', undefined, now, false);
  }
}

/** Applies one seat's action, then whatever follows from it: the next turn, the next street, or the hand's end. */
export function seatAction(state: CardsState, seat: number, action: ActionKind, amount: number | undefined, now: number): Outcome {
  return act(state, seat, action, amount, now, false);
}

function act(state: CardsState, seat: number, action: ActionKind, amount: number | undefined, now: number, timeout: boolean): Outcome {
  const hand = state.hand!;
  const stack = state.seats[seat].stack;
  const move = legalMove(hand, seat, stack, action, amount);
  const stackAfter = stack - move.chips;
  const seats = state.seats.map((s) => (s.seat === seat ? { ...s, stack: stackAfter } : s));
  let next: HandState = applyMove(hand, move, stackAfter);
  const live = next.players.filter((p) => !p.folded);
  const roundOver = live.length === 1 || bettingDone(next);
  const toAct = roundOver ? null : nextToAct(next, seat, seats.length);
  next = { ...next, toAct: null, actionDeadline: null, botActsAt: null };
  const base: CardsState = { ...state, seats, hand: next };
  const turned = toAct === null ? undefined : turn(base, toAct, now);
  const after = turned?.state ?? base;
  const applied: RoomEvent = {
    type: 'action.applied',
    data: {
      seat,
      action: move.action,
      amount: move.to,
      stack: stackAfter,
      pot: potOf(next),
      currentBet: next.currentBet,
      toAct,
      actionDeadline: after.hand?.actionDeadline ?? null,
      ...(timeout ? { timeout: true } : {}),
    },
  };
  if (turned) return { ...turned, events: [applied, ...turned.events] };
  const rest = live.length === 1 ? finishUncontested(base, now) : advance(base, now);
  return { ...rest, events: [applied, ...rest.events] };
}

/** Passes the turn to `seat`, with its clock. A bot's think time is drawn from the seed. */
function turn(state: CardsState, seat: number, now: number): Outcome {
  const hand = state.hand!;
  const clock = clockMs(state.settings);
  let botActsAt: number | null = null;
  if (seat !== HUMAN_SEAT) {
    const [min, max] = state.settings.botThinkMs;
    const think = min + Math.floor(handRandom(state, hand.number, 2 * hand.actions + 1)() * (max - min + 1));
    botActsAt = now + Math.min(clock, Math.max(1, think));
  }
  const next: CardsState = { ...state, hand: { ...hand, toAct: seat, actionDeadline: now + clock, botActsAt, turnAt: now } };
  return { state: next, events: [{ type: 'time_bank', data: { seat, remainingMs: clock } }], effects: [] };
}

const NEXT_STREET: Record<Street, Street | null> = { preflop: 'flop', flop: 'turn', turn: 'river', river: null };
const BOARD_SIZE: Record<Street, number> = { preflop: 0, flop: 3, turn: 4, river: 5 };

/** The hand's five board cards, of which only `board` has been dealt. */
function boardOf(hand: HandState, seatCount: number): Card[] {
  return dealHand(hand.deck, dealingOrder(hand.button, seatCount)).board;
}

/**
 * Runs when the street's betting is over. The next street is dealt, and while fewer than two seats
 * can still bet, the streets after it are dealt too, up to the showdown.
 */
function advance(state: CardsState, now: number): Outcome {
  let current = state;
  const events: RoomEvent[] = [];
  for (;;) {
    const hand = current.hand!;
    const street = NEXT_STREET[hand.street];
    if (street === null) {
      const shown = showdown(current, now);
      return { ...shown, events: [...events, ...shown.events] };
    }
    const board = boardOf(hand, current.seats.length).slice(0, BOARD_SIZE[street]);
    const players = hand.players.map((p) => ({ ...p, committed: 0 }));
    const active = players.filter(isActive).map((p) => p.seat);
    const betting = active.length >= 2;
    const next: HandState = {
      ...hand,
      street,
      board,
      players,
      currentBet: 0,
      lastRaise: current.settings.bigBlind,
      pending: betting ? active : [],
      raiseClosed: [],
      // The showdown order follows the last street on which anyone could bet.
      lastAggressor: betting ? null : hand.lastAggressor,
    };
    current = { ...current, hand: next };
    events.push({ type: 'street.dealt', data: { street, board, pot: potOf(next) } });
    if (betting) {
      const first = nextToAct(next, next.button, current.seats.length)!;
      const turned = turn(current, first, now);
      return { ...turned, events: [...events, ...turned.events] };
    }
  }
}

function showdown(state: CardsState, now: number): Outcome {
  const hand = state.hand!;
  const seatCount = state.seats.length;
  const cardsOf = (seat: number) => [...playerOf(hand, seat).cards, ...hand.board];
  const pots = awardPots(
    formPots(hand.players),
    (eligible) => evaluator.best(eligible.map(cardsOf)).map((i) => eligible[i]),
    hand.button,
    seatCount,
  );
  const live = hand.players.filter((p) => !p.folded).map((p) => p.seat);
  // Hands are shown starting from the last aggressor, or else from the button's left. Folded hands
  // are never shown.
  const first = hand.lastAggressor !== null && live.includes(hand.lastAggressor) ? hand.lastAggressor : (hand.button + 1) % seatCount;
  const order = Array.from({ length: seatCount }, (_, i) => (first + i) % seatCount).filter((s) => live.includes(s));
  const shown = order.map((seat) => ({ seat, cards: [...playerOf(hand, seat).cards], rank: evaluator.rank(cardsOf(seat)).description }));
  return finishHand(state, pots, shown, now);
}

function finishUncontested(state: CardsState, now: number): Outcome {
  const hand = state.hand!;
  const winner = hand.players.find((p) => !p.folded)!.seat;
  const pot = potOf(hand);
  return finishHand(state, [{ amount: pot, winners: [{ seat: winner, amount: pot }] }], [], now);
}

/**
 * Ends the hand. The pots are paid, busted bots buy in again, and the table pauses before the next
 * hand. This is a boundary, where the engine snapshots the table.
 */
function finishHand(
  state: CardsState,
  pots: readonly AwardedPot[],
  shown: readonly { seat: number; cards: Card[]; rank: string }[],
  now: number,
): Outcome {
  const hand = state.hand!;
  const won = new Map<number, number>();
  for (const pot of pots) for (const w of pot.winners) won.set(w.seat, (won.get(w.seat) ?? 0) + w.amount);
  const paid = state.seats.map((s) => ({ ...s, stack: s.stack + (won.get(s.seat) ?? 0), hands: s.hands + 1 }));
  const finished = { number: hand.number, pots, shown, stacks: paid.map((s) => ({ seat: s.seat, stack: s.stack })) };
  const seats = paid.map((s) =>
    !s.human && s.stack === 0 ? { ...s, stack: state.settings.buyIn, buyInTotal: s.buyInTotal + state.settings.buyIn } : s,
  );
  const next = afterHand({ ...state, seats, handsPlayed: hand.number, button: hand.button, lastHandAt: now }, now);
  return {
    state: next,
    events: [{ type: 'hand.finished', data: finished }, standingsEvent(next)],
    effects: [],
    boundary: true,
  };
}

/** The seats from the button's left, once round the table. */
export function dealingOrder(button: number, seatCount: number): number[] {
  return Array.from({ length: seatCount }, (_, i) => (button + 1 + i) % seatCount);
}

/**
 * Starts the next hand. The button moves one seat, the cards are dealt from the hand's own deck,
 * and the blinds are posted.
 */
export function startHand(state: CardsState, now: number): Outcome {
  const seatCount = state.seats.length;
  const number = state.handsPlayed + 1;
  const button = (state.button + 1) % seatCount;
  const deck = deckFor(state.settings.seed, number);
  const order = dealingOrder(button, seatCount);
  const { hole } = dealHand(deck, order);
  // Heads-up, the button posts the small blind.
  const sb = seatCount === 2 ? button : order[0];
  const bb = seatCount === 2 ? order[0] : order[1];
  let seats = [...state.seats];
  const blinds: { seat: number; amount: number }[] = [];
  const players: SeatInHand[] = seats.map((s) => {
    const blind = s.seat === sb ? state.settings.smallBlind : s.seat === bb ? state.settings.bigBlind : 0;
    const amount = Math.min(blind, s.stack);
    if (blind > 0) blinds.push({ seat: s.seat, amount });
    return { seat: s.seat, cards: hole.get(s.seat)!, committed: amount, totalIn: amount, folded: false, allIn: amount === s.stack };
  });
  const posted = new Map(players.map((p) => [p.seat, p.committed]));
  seats = seats.map((s) => ({ ...s, stack: s.stack - posted.get(s.seat)! }));
  blinds.sort((a, b) => (a.seat === sb ? -1 : b.seat === sb ? 1 : 0));
  const hand: HandState = {
    number,
    button,
    street: 'preflop',
    deck,
    board: [],
    players,
    currentBet: Math.max(...players.map((p) => p.committed)),
    lastRaise: state.settings.bigBlind,
    pending: players.filter(isActive).map((p) => p.seat),
    raiseClosed: [],
    lastAggressor: null,
    toAct: null,
    actionDeadline: null,
    botActsAt: null,
    turnAt: now,
    actions: 0,
  };
  const started: CardsState = { ...withoutHand(state), phase: 'playing', seats, hand };
  const events: RoomEvent[] = [
    { type: 'hand.started', data: { number, button, blinds, pot: potOf(hand), currentBet: hand.currentBet, minRaise: minRaiseOf(hand) } },
    ...order.flatMap((seat) => holeCardEvents(state, seat, hole.get(seat)!)),
  ];
  const rest = bettingDone(hand) ? advance(started, now) : turn(started, nextToAct(hand, bb, seatCount)!, now);
  return { ...rest, events: [...events, ...rest.events] };
}

/** Tells a seat's owner its cards, and tells everyone else only that the seat has cards. */
function holeCardEvents(state: CardsState, seat: number, cards: readonly [Card, Card]): RoomEvent[] {
  if (seat !== HUMAN_SEAT) return [{ type: 'hole_cards.dealt', data: { seat, cards: null } }];
  return [
    { type: 'hole_cards.dealt', data: { seat, cards: [...cards] }, audience: { to: 'seats', seats: [state.playerId] } },
    { type: 'hole_cards.dealt', data: { seat, cards: null }, audience: { to: 'allBut', seats: [state.playerId] } },
  ];
}

export function standingsEvent(state: CardsState): RoomEvent {
  return {
    type: 'standings',
    data: {
      seats: state.seats.map((s) => ({
        seat: s.seat,
        name: s.name,
        human: s.human,
        buyInTotal: s.buyInTotal,
        stack: s.stack,
        net: s.stack - s.buyInTotal,
        hands: s.hands,
        connected: s.connected,
      })),
    },
  };
}

/**
 * Records that the human's sockets came or went. The rules decide nothing by it, and every viewer
 * sees the change in a fresh snapshot.
 */
export function setPresence(state: CardsState, seatId: string, connected: boolean): Outcome {
  if (seatId !== state.playerId || state.seats[HUMAN_SEAT].connected === connected) return unchanged(state);
  const seats = state.seats.map((s) => (s.seat === HUMAN_SEAT ? { ...s, connected } : s));
  return { state: { ...state, seats }, events: [], effects: [], resync: true };
}

/**
 * Runs when a fresh process takes the table. Nobody is connected until their sockets come back. When
 * nobody was connected, the state stays the same.
 */
export function resumed(state: CardsState): CardsState {
  if (!state.seats.some((s) => s.connected)) return state;
  return { ...state, seats: state.seats.map((s) => ({ ...s, connected: false })) };
}

/**
 * Runs when the table was closed outside the room (by HTTP DELETE, or by an operator). The close is
 * already committed.
 */
export function tableClosed(state: CardsState, reason: string): Outcome {
  if (state.phase === 'closed') return unchanged(state);
  return {
    state: { ...withoutHand(state), phase: 'closed' },
    events: [{ type: 'table.closed', data: { reason } }],
    effects: [{ kind: 'close', reason }],
  };
}

/** Counts every chip at the table: the stacks and the pot. The count equals the buy-ins at every moment. */
export function chipsAtTable(state: CardsState): number {
  return state.seats.reduce((sum, s) => sum + s.stack, 0) + (state.hand ? potOf(state.hand) : 0);
}

export function buyInsOf(state: CardsState): number {
  return state.seats.reduce((sum, s) => sum + s.buyInTotal, 0);
}
