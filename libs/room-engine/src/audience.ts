import { ReplyFrame, Role, WireProfile } from '@app/protocol';
import { Actor, Audience, RoomEvent } from './game-rules';

/** One open socket as the room sees it. The transport numbers events and writes the frames. */
export interface Viewer extends Actor {
  readonly socketId: string;
  readonly role: Role;
  readonly seat?: string;
  readonly wire: WireProfile;
  /** The transport encodes the event for its profile. Sockets that would encode it alike share `encodings`. */
  sendEvent(event: OutboundEvent): void;
  sendReply(reply: ReplyFrame): void;
  close(code: number, reason: string): void;
}

/** One event on its way to the sockets of its audience. */
export interface OutboundEvent {
  readonly type: string;
  readonly data: unknown;
  /**
   * The encodings made for this event so far, keyed by the transport (its profile and whatever
   * else the bytes depend on). Each group of sockets that would send the same bytes serializes the
   * event once.
   */
  readonly encodings: Map<string, string | null>;
}

export function outboundEvent(type: string, data: unknown): OutboundEvent {
  return { type, data, encodings: new Map() };
}

export function isInAudience(viewer: Actor, audience: Audience): boolean {
  switch (audience.to) {
    case 'all':
      return true;
    case 'seats':
      return viewer.seat !== undefined && audience.seats.includes(viewer.seat);
    case 'allBut':
      return viewer.seat === undefined || !audience.seats.includes(viewer.seat);
    case 'roles':
      return audience.roles.includes(viewer.role);
  }
}

/** The sockets watching one room. */
export class Viewers {
  private readonly viewers = new Set<Viewer>();

  add(viewer: Viewer): void {
    this.viewers.add(viewer);
  }

  remove(viewer: Viewer): boolean {
    return this.viewers.delete(viewer);
  }

  /** Sends an event to exactly its audience. It is serialized once per group of sockets that send the same bytes. */
  deliver(event: RoomEvent): void {
    const out = outboundEvent(event.type, event.data);
    for (const v of this.viewers) {
      if (event.audience && !isInAudience(v, event.audience)) continue;
      v.sendEvent(out);
    }
  }

  ofSeat(seat: string): Viewer[] {
    return [...this.viewers].filter((v) => v.seat === seat);
  }

  isConnected(seat: string): boolean {
    for (const v of this.viewers) if (v.seat === seat) return true;
    return false;
  }

  get size(): number {
    return this.viewers.size;
  }

  [Symbol.iterator](): Iterator<Viewer> {
    return this.viewers[Symbol.iterator]();
  }
}
