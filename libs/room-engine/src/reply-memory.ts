import { isRetryable, ReplyFrame } from '@app/protocol';
import { Actor } from './game-rules';
import { SeatReply } from './room-store';

type Deliver = (reply: ReplyFrame) => void;

/** A reply without its `type` and `id`: the part that many command ids have alike. */
type ReplyBody = Omit<ReplyFrame, 'type' | 'id'>;

/**
 * Reply bodies shared by every command that got the same one (the same JSON text), so that a
 * thousand `{status: 200, data: {accepted: true}}` are one object. Bounded, the least recently
 * used going first: bodies that differ every time (a ping's serverTime) pass through without
 * pushing out the ones that recur. A body longer than `maxText` is kept as its own object.
 */
export class ReplyBodies {
  private readonly byText = new Map<string, ReplyBody>();

  constructor(
    private readonly bound = 64,
    private readonly maxText = 512,
  ) {}

  /** How many distinct bodies are shared now. */
  get size(): number {
    return this.byText.size;
  }

  body(reply: ReplyFrame): ReplyBody {
    const { type: _type, id: _id, ...own } = reply;
    const text = JSON.stringify(own);
    if (text.length > this.maxText) return own;
    let shared = this.byText.get(text);
    if (shared) this.byText.delete(text);
    // A frozen copy of its own: nothing the rules still hold, and no reader, can change what others are sent.
    else shared = deepFreeze(JSON.parse(text) as ReplyBody);
    this.byText.set(text, shared);
    if (this.byText.size > this.bound) this.byText.delete(this.byText.keys().next().value as string);
    return shared;
  }
}

/** One per process: rooms share bodies too (every room of a game whose command always gets the same 200 shares one). */
const sharedBodies = new ReplyBodies();

/**
 * What each seat's command ids were answered, so a resent command gets its original reply and is
 * not executed twice. A resend while the first is still in flight gets the same reply when it
 * comes. 429 and 503 are forgotten: a retry is tried afresh. Bounded per seat; oldest ids go first.
 * Each id keeps only its reply's body; the frame is made again for each resend.
 */
export class ReplyMemory {
  private readonly seats = new Map<string, Map<string, ReplyBody | Deliver[]>>();

  constructor(
    private readonly perSeat = 1000,
    private readonly bodies = sharedBodies,
  ) {}

  /** True when `id` was seen: `deliver` gets the remembered reply now, or the pending one later. */
  replay(seat: string, id: string, deliver: Deliver): boolean {
    const known = this.seats.get(seat)?.get(id);
    if (known === undefined) return false;
    if (Array.isArray(known)) known.push(deliver);
    else deliver(frame(id, known));
    return true;
  }

  /** Marks `id` as in flight for this seat. */
  begin(seat: string, id: string): void {
    let ids = this.seats.get(seat);
    if (!ids) this.seats.set(seat, (ids = new Map()));
    ids.set(id, []);
    if (ids.size > this.perSeat) ids.delete(ids.keys().next().value as string);
  }

  /** Records the reply (to `id`) and returns the resends that waited for it. */
  settle(seat: string, id: string, reply: ReplyFrame): Deliver[] {
    const ids = this.seats.get(seat);
    const waiting = ids?.get(id);
    if (!ids || waiting === undefined) return [];
    if (isRetryable(reply.status)) ids.delete(id);
    else ids.set(id, this.bodies.body(reply));
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
      const ok = [...ids].filter((e): e is [string, ReplyBody] => !Array.isArray(e[1]) && e[1].status === 200);
      for (const [id, body] of ok.slice(-perSeat)) owed.push({ seat, reply: frame(id, body) });
    }
    return owed;
  }

  forgetSeat(seat: string): void {
    this.seats.delete(seat);
  }
}

/** The reply to `id` again, a new frame each time around the body it shares. */
function frame(id: string, body: ReplyBody): ReplyFrame {
  return { type: 'reply', id, ...body };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The replay memory's key: a player's seat, the host, or a spectator's socket. */
export function seatKey(actor: Actor, socketId = ''): string {
  if (actor.role === 'player') return `p:${actor.seat}`;
  return actor.role === 'host' ? 'host' : `s:${socketId}`;
}
