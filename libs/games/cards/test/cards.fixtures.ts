// Builders and a driver for the card table's tests. They make a table in a known state and hands
// with chosen cards, and run a pure simulation that delivers every event to the viewers it is
// addressed to.
import { RoomException } from '@app/protocol';
import { Actor, isInAudience, RuleContext } from '@app/room-engine';
import { cardsRules } from '../src/cards.game';
import { FULL_DECK } from '../src/cards.deck';
import { privacyLeaks, SeenFrame, TrueHand, trueHandOf } from '../src/cards.privacy';
import { dealingOrder, HUMAN_SEAT, openCards, seatAction, startHand } from '../src/cards.rules';
import { ActionKind, Card, CardsState, Outcome, TableSettings } from '../src/cards.types';

export const T0 = 1_700_000_000_000;
export const PLAYER_ID = 'player-1';
export const HUMAN: Actor = { role: 'player', seat: PLAYER_ID };
export const SPECTATOR: Actor = { role: 'spectator' };

export const SETTINGS: TableSettings = {
  name: 'Ada',
  bots: 5,
  smallBlind: 1,
  bigBlind: 2,
  buyIn: 200,
  actionSeconds: 15,
  botThinkMs: [400, 1500],
  handPauseMs: 2000,
  seed: 42,
  idleCloseMs: 300_000,
};

/**
 * A rule context whose random source and ids throw, because the card rules draw nothing from the
 * engine: everything comes from the seed.
 */
export const ctx = (now: number): RuleContext => ({
  now,
  random: () => {
    throw new Error('the card rules must not draw from ctx.random');
  },
  id: () => {
    throw new Error('the card rules hand out no ids');
  },
});

export function table(settings: Partial<TableSettings> = {}, now = T0): CardsState {
  return openCards({ tableId: 'table-1', code: 'CARDS1', playerId: PLAYER_ID, settings: { ...SETTINGS, ...settings }, openedAt: now });
}

/**
 * Deals a hand with chosen cards. `hole` gives the hole cards by seat, and `board` the five board
 * cards to come. `stacks` gives the stacks by seat (by default, the buy-in), and the button lands
 * on `button`.
 */
export function dealt(
  opts: { settings?: Partial<TableSettings>; stacks?: number[]; button?: number; hole?: Record<number, [Card, Card]>; board?: Card[] } = {},
): Outcome {
  let state = table(opts.settings);
  const n = state.seats.length;
  if (opts.stacks)
    state = { ...state, seats: state.seats.map((s) => ({ ...s, stack: opts.stacks![s.seat], buyInTotal: opts.stacks![s.seat] })) };
  const button = opts.button ?? 0;
  state = { ...state, button: (button - 1 + n) % n };
  const deck = opts.hole || opts.board ? deckWith(dealingOrder(button, n), opts.hole ?? {}, opts.board ?? []) : undefined;
  const started = startHand(state, T0);
  if (!deck) return started;
  const hand = started.state.hand!;
  const players = hand.players.map((p) => ({ ...p, cards: [deck.hole.get(p.seat)![0], deck.hole.get(p.seat)![1]] as [Card, Card] }));
  return { ...started, state: { ...started.state, hand: { ...hand, deck: deck.deck, players } } };
}

/** Builds a deck that deals these hole cards and this board in `order`. The other cards fill the gaps. */
function deckWith(order: number[], hole: Record<number, [Card, Card]>, board: Card[]) {
  const n = order.length;
  const deck: (Card | undefined)[] = new Array(52).fill(undefined);
  order.forEach((seat, i) => {
    if (hole[seat]) [deck[i], deck[n + i]] = hole[seat];
  });
  [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7].forEach((at, i) => (deck[at] = board[i]));
  const rest = FULL_DECK.filter((c) => !deck.includes(c));
  const full = deck.map((c) => c ?? rest.shift()!);
  const holeBySeat = new Map(order.map((seat, i) => [seat, [full[i], full[n + i]] as [Card, Card]]));
  return { deck: full, hole: holeBySeat };
}

/** Sends the human's `table.act` command at `now`. */
export function humanAct(state: CardsState, action: ActionKind, amount?: number, now = T0 + 1, id = `c-${Math.random()}`): Outcome {
  return cardsRules.decide(state, HUMAN, { id, type: 'table.act', data: amount === undefined ? { action } : { action, amount } }, ctx(now));
}

/**
 * Acts for whichever seat is to act, bots included, as the test says. The bots are steered through
 * the same checks as the human.
 */
export function seatAct(state: CardsState, action: ActionKind, amount?: number): Outcome {
  const hand = state.hand!;
  if (hand.toAct === HUMAN_SEAT) return humanAct(state, action, amount, hand.turnAt);
  return seatAction(state, hand.toAct!, action, amount, hand.turnAt);
}

/** Plays a run of actions, in order, each for whoever is to act. */
export function play(state: CardsState, ...actions: ([ActionKind] | [ActionKind, number])[]): Outcome[] {
  const outcomes: Outcome[] = [];
  for (const [action, amount] of actions) {
    const o = seatAct(state, action, amount);
    outcomes.push(o);
    state = o.state;
  }
  return outcomes;
}

/** Runs `fn`, which must refuse, and returns the refusal's code and status. */
export function refusal(fn: () => unknown): { code: string; status: number } {
  try {
    fn();
  } catch (err) {
    if (err instanceof RoomException) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('expected a refusal');
}

export const eventsOf = (o: Outcome, type: string) => o.events.filter((e) => e.type === type).map((e) => e.data as any);

/** What the human decides when it is its turn: an action with an amount, which may be illegal. */
export type HumanPolicy = (state: CardsState, draw: () => number) => { action: ActionKind; amount?: number };

/** A human who tries anything, legal or not, with amounts near the interesting edges. */
export const wildHuman: HumanPolicy = (state, draw) => {
  const actions: ActionKind[] = ['fold', 'check', 'call', 'bet', 'raise', 'all_in'];
  const action = actions[Math.floor(draw() * actions.length)];
  if (action !== 'bet' && action !== 'raise') return { action };
  const hand = state.hand!;
  const me = hand.players.find((p) => p.seat === HUMAN_SEAT)!;
  const max = me.committed + state.seats[HUMAN_SEAT].stack;
  const min = hand.currentBet + hand.lastRaise;
  const picks = [min, min - 1, max, max + 1, Math.floor((min + max) / 2), hand.currentBet];
  return { action, amount: Math.max(0, picks[Math.floor(draw() * picks.length)]) };
};

/** A simple mulberry32 for the tests' own choices. */
export function prng(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimStep {
  readonly kind: 'deadline' | 'human';
  readonly at: number;
  readonly before: CardsState;
  readonly outcome?: Outcome;
  readonly refused?: RoomException;
  readonly action?: { action: ActionKind; amount?: number };
}

/**
 * A table run without an engine. Deadlines fire at their moments, and the human acts (after
 * `humanDelay` ms) when it is its turn. Every event reaches exactly its audience among the human's
 * socket and a spectator's. Frames go through JSON, as on the wire.
 */
export class TableSim {
  state: CardsState;
  now: number;
  readonly frames = new Map<string, SeenFrame[]>([
    ['human', []],
    ['spectator', []],
  ]);
  readonly truth = new Map<number, TrueHand>();
  readonly steps: SimStep[] = [];
  private readonly viewers: [string, Actor][] = [
    ['human', HUMAN],
    ['spectator', SPECTATOR],
  ];

  constructor(
    settings: Partial<TableSettings>,
    private readonly policy: HumanPolicy,
    private readonly draw: () => number,
    private readonly humanDelay: (draw: () => number) => number = () => 1,
  ) {
    this.state = table(settings);
    this.now = T0;
    for (const [key, actor] of this.viewers) this.frames.get(key)!.push(this.snapshot(actor));
  }

  private snapshot(actor: Actor): SeenFrame {
    return { type: 'table.snapshot', data: JSON.parse(JSON.stringify(cardsRules.view(this.state, actor, this.now))) };
  }

  /** Connects every viewer again. Each viewer's first frame is the table as it may see it. */
  reconnect(): void {
    for (const [key, actor] of this.viewers) this.frames.get(key)!.push(this.snapshot(actor));
  }

  /**
   * Makes one thing happen. The human acts if it is its turn and its delay is up; otherwise the next
   * deadline fires.
   */
  step(): SimStep | undefined {
    const due = cardsRules.nextDeadline(this.state);
    const hand = this.state.hand;
    const humanTurn = this.state.phase === 'playing' && hand?.toAct === HUMAN_SEAT;
    const humanAt = humanTurn ? hand!.turnAt + this.humanDelay(this.draw) : undefined;
    if (humanAt !== undefined && (due === undefined || humanAt <= due)) return this.human(humanAt, this.policy(this.state, this.draw));
    if (this.state.phase === 'waiting') return this.rebuy(Math.max(this.now, this.state.lastHandAt) + 1);
    if (due === undefined) return undefined;
    const before = this.state;
    this.now = due;
    const outcome = cardsRules.onSignal(this.state, { kind: 'deadline' }, ctx(due));
    return this.apply({ kind: 'deadline', at: due, before, outcome });
  }

  human(at: number, action: { action: ActionKind; amount?: number }): SimStep {
    const before = this.state;
    this.now = Math.max(this.now, at);
    try {
      const outcome = humanAct(this.state, action.action, action.amount, at, `h-${this.steps.length}`);
      return this.apply({ kind: 'human', at, before, outcome, action });
    } catch (err) {
      if (!(err instanceof RoomException)) throw err;
      const step: SimStep = { kind: 'human', at, before, refused: err, action };
      this.steps.push(step);
      // The policy may try something illegal. When all of a human's tries fail, its clock times it out.
      return step;
    }
  }

  rebuy(at: number): SimStep {
    const before = this.state;
    this.now = at;
    const outcome = cardsRules.decide(this.state, HUMAN, { id: `r-${this.steps.length}`, type: 'table.rebuy', data: {} }, ctx(at));
    return this.apply({ kind: 'human', at, before, outcome });
  }

  private apply(step: SimStep): SimStep {
    const o = step.outcome!;
    this.steps.push(step);
    this.recordTruth(step.before, o);
    this.state = o.state;
    for (const e of o.events) {
      for (const [key, actor] of this.viewers) {
        if (!e.audience || isInAudience(actor, e.audience))
          this.frames.get(key)!.push({ type: e.type, data: JSON.parse(JSON.stringify(e.data)) });
      }
    }
    if (o.resync) for (const [key, actor] of this.viewers) this.frames.get(key)!.push(this.snapshot(actor));
    return step;
  }

  /**
   * Records the true deal of the hand in play, with the folds the rules applied (including the last
   * fold of a hand).
   */
  private recordTruth(before: CardsState, o: Outcome): void {
    const n = before.seats.length;
    if (before.hand) {
      const folds = o.events
        .filter((e) => e.type === 'action.applied' && (e.data as any).action === 'fold')
        .map((e) => (e.data as any).seat as number);
      const folded = [...before.hand.players.filter((p) => p.folded).map((p) => p.seat), ...folds];
      this.truth.set(before.hand.number, trueHandOf(before.hand, n, folded));
    }
    if (o.state.hand) this.truth.set(o.state.hand.number, trueHandOf(o.state.hand, n));
  }

  /** Runs until `hands` hands have finished, or until `maxSteps` things have happened. */
  runHands(hands: number, maxSteps = 20_000, each?: (step: SimStep, sim: TableSim) => void): void {
    for (let i = 0; i < maxSteps && this.state.handsPlayed < hands && this.state.phase !== 'closed'; i++) {
      const step = this.step();
      if (!step) return;
      each?.(step, this);
    }
  }

  leaks(viewer: 'human' | 'spectator'): string[] {
    return privacyLeaks(this.frames.get(viewer)!, this.truth, viewer === 'human' ? HUMAN_SEAT : undefined);
  }
}
