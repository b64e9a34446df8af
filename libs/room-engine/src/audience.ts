import { ReplyFrame, Role, WireProfile } from '@app/protocol';

/** One open socket as the room sees it. The transport numbers events and writes the frames. */
export interface Viewer {
  readonly socketId: string;
  readonly role: Role;
  readonly playerId?: string;
  readonly wire: WireProfile;
  /** `dataJson` is the event's data, already serialized: a broadcast serializes it once. */
  sendEvent(type: string, dataJson: string): void;
  sendReply(reply: ReplyFrame): void;
  close(code: number, reason: string): void;
}

/** The sockets watching one room. */
export class Audience {
  private readonly viewers = new Set<Viewer>();

  add(viewer: Viewer): void {
    this.viewers.add(viewer);
  }

  remove(viewer: Viewer): boolean {
    return this.viewers.delete(viewer);
  }

  /** Sends the same event to everyone, serialized once. */
  broadcast(type: string, data: unknown): void {
    if (this.viewers.size === 0) return;
    const json = JSON.stringify(data);
    for (const v of this.viewers) v.sendEvent(type, json);
  }

  seatsOf(playerId: string): Viewer[] {
    return [...this.viewers].filter((v) => v.playerId === playerId);
  }

  isConnected(playerId: string): boolean {
    for (const v of this.viewers) if (v.playerId === playerId) return true;
    return false;
  }

  get size(): number {
    return this.viewers.size;
  }

  [Symbol.iterator](): Iterator<Viewer> {
    return this.viewers[Symbol.iterator]();
  }
}
