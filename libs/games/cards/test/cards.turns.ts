// The human's side of a card table over a real socket, for the tests that stop a table mid-hand (a
// restart, a failover). It gives the human's acts, and finds the moment of its second turn in one
// hand.
import { GameEvent, nextEventFrom, Reply, SeatClient } from '@app/bot-kit';
import { HUMAN_SEAT } from '../src/cards.rules';

/**
 * Sends a check, or a call where the rules refuse a check: an act that keeps the human in its hand.
 * When `id` is given, the check is sent under `id` and the call under `id-call`.
 */
export async function checkOrCall(human: SeatClient, id?: string): Promise<Reply> {
  const reply = await human.send('table.act', { action: 'check' }, id);
  if (reply.status === 409 && reply.error?.code === 'illegal_action')
    return human.send('table.act', { action: 'call' }, id === undefined ? undefined : `${id}-call`);
  return reply;
}

/** Where the human stands at its second turn in one hand. */
export interface SecondTurn {
  /** The hand's number. */
  readonly hand: number;
  /** The human's acts that the server acknowledged, by id (`act-<hand>-<n>`, maybe with `-call`), in order. */
  readonly acknowledged: readonly string[];
  /** The acknowledged acts of `hand`. */
  readonly thisHand: readonly string[];
  /** The human's hole cards in `hand`. */
  readonly cards: readonly string[];
}

/**
 * Acts (check or call) once in a hand, and resolves at the human's next turn in that same hand.
 * `first` is the socket's first `table.snapshot`. A table's first hand starts 50 ms after it opens,
 * so on a busy machine the socket can come in after the deal, or at the human's turn. In that case
 * the snapshot says which hand it is and who acts.
 */
export async function untilSecondTurn(human: SeatClient, first: GameEvent, timeoutMs: number): Promise<SecondTurn> {
  const cursor = { at: 0 };
  const acknowledged: string[] = [];
  const actedIn = new Set<number>();
  let hand: number = first.data.hand?.number ?? 0;
  let humanToAct = first.data.hand?.toAct === HUMAN_SEAT;
  for (;;) {
    if (!humanToAct) {
      const next = await nextEventFrom(
        human,
        cursor,
        (e) => e.type === 'hand.started' || (e.type === 'time_bank' && e.data.seat === HUMAN_SEAT),
        timeoutMs,
      );
      if (next.type === 'hand.started') {
        hand = next.data.number;
        continue;
      }
    }
    humanToAct = false;
    if (actedIn.has(hand)) break;
    const reply = await checkOrCall(human, `act-${hand}-${acknowledged.length}`);
    if (reply.status !== 200) throw new Error(`the human's act at its turn in hand ${hand} was refused: ${JSON.stringify(reply)}`);
    acknowledged.push(reply.id!);
    actedIn.add(hand);
  }
  // The hand's cards were either dealt on this socket after the hand started, or shown by the first
  // snapshot.
  const events = human.decoded.filter((f): f is GameEvent => f.type !== 'reply');
  const dealtHere = events.some((e) => e.type === 'hand.started' && e.data.number === hand);
  const cards = dealtHere
    ? events.filter((e) => e.type === 'hole_cards.dealt' && e.data.seat === HUMAN_SEAT).pop()!.data.cards
    : first.data.yourCards;
  return { hand, acknowledged, thisHand: acknowledged.filter((id) => id.startsWith(`act-${hand}-`)), cards };
}
