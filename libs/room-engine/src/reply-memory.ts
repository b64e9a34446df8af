import { isRetryable, ReplyFrame } from '@app/protocol';
import { Actor } from './game-rules';
import { SeatReply } from './room-store';

type Deliver = (reply: ReplyFrame) => void;

/**
 * What each seat's command ids were answered, so a resent command gets its original reply and is
 * not executed twice. A resend while the first is still in flight gets the same reply when it
 * comes. 429 and 503 are forgotten: a retry is tried afresh. Bounded per seat; oldest ids go first.
 */
export class ReplyMemory {
  private readonly seats = new Map<string, Map<string, ReplyFrame | Deliver[]>>();

  constructor(private readonly perSeat = 1000) {}

  /** True when `id` was seen: `deliver` gets the remembered reply now, or the pending one later. */
  replay(seat: string, id: string, deliver: Deliver): boolean {
    const known = this.seats.get(seat)?.get(id);
    if (known === undefined) return false;
    if (Array.isArray(known)) known.push(deliver);
    else deliver(known);
    return true;
  }

  /** Marks `id` as in flight for this seat. */
  begin(seat: string, id: string): void {
    let ids = this.seats.get(seat);
    if (!ids) this.seats.set(seat, (ids = new Map()));
    ids.set(id, []);
    if (ids.size > this.perSeat) ids.delete(ids.keys().next().value as string);
  }

  /** Records the reply and returns the resends that waited for it. */
  settle(seat: string, id: string, reply: ReplyFrame): Deliver[] {
    const ids = this.seats.get(seat);
    const waiting = ids?.get(id);
    if (!ids || waiting === undefined) return [];
    if (isRetryable(reply.status)) ids.delete(id);
    else ids.set(id, reply);
    return Array.isArray(waiting) ? waiting : [];
  }

  /** Remembers a reply given before this memory existed (a room rebuilt after a restart). */
  remember(seat: string, reply: ReplyFrame): void {
    if (reply.id === null) return;
    this.begin(seat, reply.id);
    this.settle(seat, reply.id, reply);
  }

  /** Each seat's latest `perSeat` successful replies, oldest first: what a snapshot keeps for resends. */
  recentOk(perSeat: number): SeatReply[] {
    const owed: SeatReply[] = [];
    for (const [seat, ids] of this.seats) {
      const ok = [...ids.values()].filter((r): r is ReplyFrame => !Array.isArray(r) && r.status === 200);
      for (const reply of ok.slice(-perSeat)) owed.push({ seat, reply });
    }
    return owed;
  }

  forgetSeat(seat: string): void {
    this.seats.delete(seat);
  }
}

/** The replay memory's key: a player's seat, the host, or a spectator's socket. */
export function seatKey(actor: Actor, socketId = ''): string {
  if (actor.role === 'player') return `p:${actor.seat}`;
  return actor.role === 'host' ? 'host' : `s:${socketId}`;
}
