import { CARD_PATTERN, dealHand, deckFor } from './cards.deck';
import { dealingOrder } from './cards.rules';
import { Card, HandState } from './cards.types';

/**
 * What was really dealt in one hand, and who folded in it. A viewer's frames are checked against
 * this.
 */
export interface TrueHand {
  readonly number: number;
  readonly hole: Readonly<Record<number, readonly Card[]>>;
  /** All five board cards, whether dealt or not. */
  readonly board: readonly Card[];
  readonly folded: readonly number[];
  /** Whether two or more seats were still in at the end, so that the live hands were shown. */
  readonly showdown: boolean;
}

export interface SeenFrame {
  readonly type: string;
  readonly data: unknown;
}

export function trueHandOf(
  hand: HandState,
  seatCount: number,
  folded: readonly number[] = hand.players.filter((p) => p.folded).map((p) => p.seat),
): TrueHand {
  const { board } = dealHand(hand.deck, dealingOrder(hand.button, seatCount));
  return {
    number: hand.number,
    hole: Object.fromEntries(hand.players.map((p) => [p.seat, [...p.cards]])),
    board,
    folded,
    showdown: hand.players.length - folded.length >= 2,
  };
}

/**
 * Works out what was really dealt in each hand a viewer saw, from the table's seed and the public
 * frames (who had the button, who folded). `privacyLeaks` checks that viewer's frames against it.
 * A viewer that connected mid-hand learns of the hand from its first snapshot, including the folds
 * made before it connected.
 */
export function truthFromFrames(frames: readonly SeenFrame[], seed: number, seatCount: number): Map<number, TrueHand> {
  const deal = new Map<number, TrueHand>();
  let current: { number: number; button: number; folded: number[] } | undefined;
  for (const { type, data } of frames as readonly { type: string; data: any }[]) {
    if (type === 'hand.started') current = { number: data.number, button: data.button, folded: [] };
    // A snapshot says who has folded so far, even in a hand the viewer was already following. That
    // matters because a table moved to another instance takes again the bots' actions it never
    // wrote, including folds the viewer saw.
    if (type === 'table.snapshot' && data.hand) {
      current = {
        number: data.hand.number,
        button: data.hand.button,
        folded: data.seats.filter((x: any) => x.folded).map((x: any) => x.seat),
      };
    }
    if (type === 'action.applied' && data.action === 'fold' && current && !current.folded.includes(data.seat))
      current.folded.push(data.seat);
    if (type === 'hand.finished' && current) deal.set(current.number, dealtHand(current, seed, seatCount, true));
  }
  // The frames may end inside a hand, because the table closed or the recording stopped before the
  // hand finished. That hand was dealt all the same: its cards are known, and none of it was shown.
  if (current && !deal.has(current.number)) deal.set(current.number, dealtHand(current, seed, seatCount, false));
  return deal;
}

/** What the table's seed dealt in one hand, with who folded and whether the hand was shown down. */
function dealtHand(
  hand: { number: number; button: number; folded: number[] },
  seed: number,
  seatCount: number,
  finished: boolean,
): TrueHand {
  const { hole, board } = dealHand(deckFor(seed, hand.number), dealingOrder(hand.button, seatCount));
  return {
    number: hand.number,
    hole: Object.fromEntries([...hole].map(([seat, cards]) => [seat, cards])),
    board,
    folded: hand.folded,
    showdown: finished && seatCount - hand.folded.length >= 2,
  };
}

const BOARD_SIZE: Record<string, number> = { preflop: 0, flop: 3, turn: 4, river: 5 };

/**
 * Checks the privacy property of PROTOCOL.md section 8 over the frames one viewer got, in order. A
 * card may appear only as the viewer's own hole card (`yourSeat`, which is undefined for a
 * spectator), as the board dealt so far for the street the frame names, or among the live hands
 * shown at a showdown. Anywhere else, or with other cards, it is a leak. Returns the leaks found,
 * and an empty list means the frames pass.
 */
export function privacyLeaks(frames: readonly SeenFrame[], deal: ReadonlyMap<number, TrueHand>, yourSeat: number | undefined): string[] {
  const leaks: string[] = [];
  let current: number | undefined;
  const same = (a: unknown, b: readonly Card[] | undefined) =>
    Array.isArray(a) && b !== undefined && a.length === b.length && a.every((c, i) => c === b[i]);
  frames.forEach((frame, index) => {
    const data = frame.data as Record<string, any>;
    if (frame.type === 'hand.started') current = data.number;
    if (frame.type === 'table.snapshot') current = data.hand?.number ?? current;
    const number = frame.type === 'hand.finished' ? data.number : current;
    const truth = number === undefined ? undefined : deal.get(number);
    for (const { path, card } of cardsIn(data)) {
      const where = `frame ${index} (${frame.type}) at ${path}: ${card}`;
      if (!truth) {
        leaks.push(`${where}, outside any hand`);
        continue;
      }
      let allowed = false;
      if (frame.type === 'hole_cards.dealt' && /^cards\[\d\]$/.test(path)) {
        allowed = yourSeat !== undefined && data.seat === yourSeat && same(data.cards, truth.hole[yourSeat]);
      } else if (frame.type === 'table.snapshot' && /^yourCards\[\d\]$/.test(path)) {
        allowed = yourSeat !== undefined && same(data.yourCards, truth.hole[yourSeat]);
      } else if (frame.type === 'street.dealt' && /^board\[\d\]$/.test(path)) {
        allowed = same(data.board, truth.board.slice(0, BOARD_SIZE[data.street] ?? -1));
      } else if (frame.type === 'table.snapshot' && /^hand\.board\[\d\]$/.test(path)) {
        allowed = same(data.hand.board, truth.board.slice(0, BOARD_SIZE[data.hand.street] ?? -1));
      } else if (frame.type === 'hand.finished') {
        const m = /^shown\[(\d+)\]\.cards\[\d\]$/.exec(path);
        const shown = m ? data.shown[Number(m[1])] : undefined;
        allowed = !!shown && truth.showdown && !truth.folded.includes(shown.seat) && same(shown.cards, truth.hole[shown.seat]);
      }
      if (!allowed) leaks.push(where);
    }
  });
  return leaks;
}

/**
 * Finds every string in a frame that spells a card, with where it is. A seat's name is skipped,
 * because it is a person's words, not a card.
 */
function cardsIn(value: unknown, path = ''): { path: string; card: string }[] {
  if (typeof value === 'string') return CARD_PATTERN.test(value) ? [{ path, card: value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => cardsIn(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (k === 'name' ? [] : cardsIn(v, path ? `${path}.${k}` : k)));
  }
  return [];
}
