import { SeatClaims } from './seat-token';

/**
 * The open sockets of each seat token, oldest first, with at most `cap` per seat. The newest
 * socket wins, and `add` hands back the ones it pushed out, for the caller to close. A seat is a
 * (role, seat) pair within one room. It leaves the map with its last socket, so the map holds only
 * what is open.
 *
 *     const pushedOut = seats.add(claims, session); // close each with 4010
 *     ws.on('close', () => seats.remove(claims, session));
 */
export class SeatSockets<S> {
  private readonly bySeat = new Map<string, S[]>();

  constructor(private readonly cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`a seat must be allowed at least one socket, got ${cap}`);
  }

  add(claims: SeatClaims, socket: S): S[] {
    const key = seatKey(claims);
    const open = this.bySeat.get(key) ?? [];
    open.push(socket);
    this.bySeat.set(key, open);
    return open.length > this.cap ? open.splice(0, open.length - this.cap) : [];
  }

  /** Removes a socket that closed. If it was already pushed out, nothing changes. */
  remove(claims: SeatClaims, socket: S): void {
    const key = seatKey(claims);
    const open = this.bySeat.get(key);
    if (!open) return;
    const at = open.indexOf(socket);
    if (at >= 0) open.splice(at, 1);
    if (open.length === 0) this.bySeat.delete(key);
  }

  /** How many seats have at least one open socket. */
  get seats(): number {
    return this.bySeat.size;
  }

  socketsOf(claims: SeatClaims): readonly S[] {
    return this.bySeat.get(seatKey(claims)) ?? [];
  }
}

// Every room has a seat called `host`, so the room must be part of the seat's key. JSON keeps the
// parts apart, whatever they hold.
function seatKey(claims: SeatClaims): string {
  return JSON.stringify([claims.roomId, claims.role, claims.seat]);
}
