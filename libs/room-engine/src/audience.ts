import { ReplyFrame, Role, WireProfile } from '@app/protocol';
import { Actor, Audience, RoomEvent } from './game-rules';

/** One open socket as the room sees it. The transport numbers events and writes the frames. */
export interface Viewer extends Actor {
  readonly socketId: string;
  readonly role: Role;
  readonly seat?: string;
  readonly wire: WireProfile;
  /** `dataJson` is the event's data, already serialized: a group of sockets shares one string. */
  sendEvent(type: string, dataJson: string): void;
  sendReply(reply: ReplyFrame): void;
  close(code: number, reason: string): void;
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

  /** Sends an event to exactly its audience, serialized once for all of them. */
  deliver(event: RoomEvent): void {
    let json: string | undefined;
    for (const v of this.viewers) {
      if (event.audience && !isInAudience(v, event.audience)) continue;
      json ??= JSON.stringify(event.data);
      v.sendEvent(event.type, json);
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
