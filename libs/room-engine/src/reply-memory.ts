import { ReplyFrame, Status } from '@app/protocol';
import { Actor } from './game-rules';
import { SeatReply } from './room-store';

type Deliver = (reply: ReplyFrame) => void;

/** A reply without its `type` and `id`. This is the part that many command ids have in common. */
type ReplyBody = Omit<ReplyFrame, 'type' | 'id'>;

/**
 * Shares one reply body among every command that got the same body (the same JSON text), so that
 * a thousand `{status: 200, data: {accepted: true}}` are one object. The cache is bounded, and the
 * least recently used body goes first, so bodies that differ every time pass through without
 * pushing out the ones that recur. A body longer than `maxText` is not shared but kept as its own
 * object.
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
    // Keep a frozen copy, so that neither the rules (which may still hold the original) nor any
    // reader can change what others are sent.
    else shared = deepFreeze(JSON.parse(text) as ReplyBody);
    this.byText.set(text, shared);
    if (this.byText.size > this.bound) this.byText.delete(this.byText.keys().next().value as string);
    return shared;
  }
}

/**
 * One cache per process, so rooms share bodies too: when a game's command always gets the same 200,
 * every room of that game shares the one body.
 */
const sharedBodies = new ReplyBodies();

/** How much a room remembers of the replies it gave, in bytes of JSON as a snapshot stores them. */
export interface ReplyMemoryBounds {
  /** The bound for all of the room's seats together. */
  readonly roomBytes: number;
  /** The most one seat may take, so a seat that sends many commands pushes out only its own older ids. */
  readonly seatBytes: number;
}

/** Enough for about the last 60 replies of a seat and 500 of a whole room, at about 130 bytes a reply. */
export const DEFAULT_REPLY_MEMORY: ReplyMemoryBounds = { roomBytes: 64 * 1024, seatBytes: 8 * 1024 };

/** What a room's reply memory holds now. The console's room detail and tests read it. */
export interface ReplyMemoryStats {
  /** How many seats (players and the host) have remembered ids. */
  readonly seats: number;
  /** How many ids are remembered, over all seats. */
  readonly ids: number;
  /** How many bytes those ids count against `roomBytes`. */
  readonly bytes: number;
  /** How many ids still wait for their reply (a resend waits for it too). */
  readonly inFlight: number;
  /** How many spectators' sockets hold anything here (ids in flight, or remembered). */
  readonly sockets: number;
}

interface Remembered {
  readonly seat: string;
  readonly id: string;
  readonly body: ReplyBody;
  readonly bytes: number;
}

/**
 * The acknowledged replies of a room's seats, in the order they were given, kept within the
 * room's bounds. When a seat goes past its bound, its own oldest reply goes; when the room goes
 * past its bound, the room's oldest reply goes. What the window holds depends only on the replies
 * added and their order. So adding the same replies in the same order (a snapshot's, then the
 * journal's after it) makes the same window.
 */
export class ReplyWindow {
  /** Every remembered reply, oldest first. A Set keeps insertion order and deletes in O(1). */
  private readonly order = new Set<Remembered>();
  private readonly seats = new Map<string, { readonly ids: Map<string, Remembered>; bytes: number }>();
  private total = 0;

  constructor(readonly bounds: ReplyMemoryBounds) {}

  get(seat: string, id: string): ReplyBody | undefined {
    return this.seats.get(seat)?.ids.get(id)?.body;
  }

  add(seat: string, id: string, body: ReplyBody): void {
    const known = this.seats.get(seat)?.ids.get(id);
    if (known) this.remove(known);
    const own = this.insert({ seat, id, body, bytes: storedBytes(seat, frame(id, body)) });
    while (own.bytes > this.bounds.seatBytes) this.remove(own.ids.values().next().value!);
    while (this.total > this.bounds.roomBytes) this.remove(this.order.values().next().value!);
  }

  /** Returns an independent copy: adding to the copy leaves this window as it is. */
  copy(): ReplyWindow {
    const copy = new ReplyWindow(this.bounds);
    // Insert the same entries in the same order. They already fit, so nothing is pushed out.
    for (const e of this.order) copy.insert(e);
    return copy;
  }

  /** Every remembered reply as a whole frame, oldest first. A snapshot stores this. */
  entries(): SeatReply[] {
    return [...this.order].map((e) => ({ seat: e.seat, reply: frame(e.id, e.body) }));
  }

  get seatCount(): number {
    return this.seats.size;
  }

  get size(): number {
    return this.order.size;
  }

  get bytes(): number {
    return this.total;
  }

  /** Adds the newest entry and returns its seat's share with it. The caller applies the bounds. */
  private insert(entry: Remembered): { readonly ids: Map<string, Remembered>; bytes: number } {
    let own = this.seats.get(entry.seat);
    if (!own) this.seats.set(entry.seat, (own = { ids: new Map(), bytes: 0 }));
    own.ids.set(entry.id, entry);
    own.bytes += entry.bytes;
    this.order.add(entry);
    this.total += entry.bytes;
    return own;
  }

  private remove(entry: Remembered): void {
    const own = this.seats.get(entry.seat)!;
    own.ids.delete(entry.id);
    own.bytes -= entry.bytes;
    this.order.delete(entry);
    this.total -= entry.bytes;
    if (own.ids.size === 0) this.seats.delete(entry.seat);
  }
}

/**
 * Remembers the reply each of a seat's command ids got, so that a resent command gets its original
 * reply and is not executed twice. A resend that arrives while the first is still in flight gets
 * the same reply when it comes. Only acknowledged commands (200, which means journaled) are
 * remembered. A refused command changed nothing, so it is decided afresh, as a 429 or 503 is.
 * Pings never come here. Each id keeps only its reply's body, and the frame is made again for
 * each resend.
 *
 * The replies of players and the host form the room's window (`ReplyWindow`). A snapshot carries
 * the window and the journal after it extends it, so that a room rebuilt after a restart remembers
 * exactly what it remembered before. A resend does not renew an id, because a resend is not
 * journaled and the window must not depend on it. A spectator's memory belongs to its socket (a
 * reconnect is a new socket, which no resend can match). It is kept apart from the window and
 * dropped when the socket goes.
 */
export class ReplyMemory {
  /** Ids whose reply has not come yet, with the resends waiting for it. */
  private readonly pending = new Map<string, Map<string, Deliver[]>>();
  private readonly window: ReplyWindow;
  /** The acknowledged replies of spectators' sockets, each socket within a seat's bound. */
  private readonly sockets = new Map<string, ReplyWindow>();

  constructor(
    readonly bounds: ReplyMemoryBounds = DEFAULT_REPLY_MEMORY,
    private readonly bodies = sharedBodies,
  ) {
    this.window = new ReplyWindow(bounds);
  }

  /**
   * Returns true when `id` was seen before. `deliver` then gets the remembered reply now, or the
   * pending reply once it comes.
   */
  replay(seat: string, id: string, deliver: Deliver): boolean {
    const waiting = this.pending.get(seat)?.get(id);
    if (waiting) {
      waiting.push(deliver);
      return true;
    }
    const body = this.windowOf(seat)?.get(seat, id);
    if (body === undefined) return false;
    deliver(frame(id, body));
    return true;
  }

  /** Marks `id` as in flight for this seat. */
  begin(seat: string, id: string): void {
    let ids = this.pending.get(seat);
    if (!ids) this.pending.set(seat, (ids = new Map()));
    ids.set(id, []);
  }

  /** Records the reply to `id` if it acknowledged the command, and returns the resends that waited for it. */
  settle(seat: string, id: string, reply: ReplyFrame): Deliver[] {
    const ids = this.pending.get(seat);
    const waiting = ids?.get(id);
    if (!ids || !waiting) return [];
    ids.delete(id);
    if (ids.size === 0) this.pending.delete(seat);
    if (reply.status === Status.ok) this.remember(seat, reply);
    return waiting;
  }

  /**
   * Remembers an acknowledged reply. The reply may be live, or one given before this memory existed
   * (in a room rebuilt after a restart).
   */
  remember(seat: string, reply: ReplyFrame): void {
    if (reply.id === null) return;
    const body = this.bodies.body(reply);
    if (!isSocketKey(seat)) return this.window.add(seat, reply.id, body);
    let own = this.sockets.get(seat);
    if (!own) this.sockets.set(seat, (own = new ReplyWindow({ roomBytes: this.bounds.seatBytes, seatBytes: this.bounds.seatBytes })));
    own.add(seat, reply.id, body);
  }

  /**
   * The replies a snapshot must keep for resends, once these acknowledged replies join the memory:
   * the window as it would then be, oldest first. The memory itself is left as it is, because the
   * replies join it only as their commands are confirmed.
   */
  owed(acks: readonly SeatReply[]): SeatReply[] {
    const window = this.window.copy();
    for (const { seat, reply } of acks) {
      if (!isSocketKey(seat) && reply.id !== null) window.add(seat, reply.id, this.bodies.body(reply));
    }
    return window.entries();
  }

  /** Forgets whatever a spectator's socket left here, once that socket has gone. */
  forgetSocket(seat: string): void {
    this.pending.delete(seat);
    this.sockets.delete(seat);
  }

  stats(): ReplyMemoryStats {
    let inFlight = 0;
    for (const ids of this.pending.values()) inFlight += ids.size;
    const sockets = new Set([...this.sockets.keys(), ...[...this.pending.keys()].filter(isSocketKey)]);
    return { seats: this.window.seatCount, ids: this.window.size, bytes: this.window.bytes, inFlight, sockets: sockets.size };
  }

  private windowOf(seat: string): ReplyWindow | undefined {
    return isSocketKey(seat) ? this.sockets.get(seat) : this.window;
  }
}

/** Rebuilds the reply to `id`: a new frame each time, around the body it shares. */
function frame(id: string, body: ReplyBody): ReplyFrame {
  return { type: 'reply', id, ...body };
}

/** The size a remembered reply counts for: its bytes as a snapshot stores it, in UTF-8 JSON. */
function storedBytes(seat: string, reply: ReplyFrame): number {
  return Buffer.byteLength(JSON.stringify({ seat, reply }), 'utf8');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The reply memory's key: a player's seat, the host, or a spectator's socket. */
export function seatKey(actor: Actor, socketId = ''): string {
  if (actor.role === 'player') return `p:${actor.seat}`;
  return actor.role === 'host' ? 'host' : `s:${socketId}`;
}

/** Whether the key is a spectator's. Such a key names the socket, which does not outlive a reconnect. */
function isSocketKey(seat: string): boolean {
  return seat.startsWith('s:');
}
