import { IncomingMessage } from 'node:http';
import { Inject, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import WebSocket from 'ws';
import { Arrival } from '@app/room-engine';
import { CloseCode, errorReply, parseFrame, RoomErrorCode, RoomException, WireProfile, wireProfileOf } from '@app/protocol';
import { GATEWAY_OPTIONS, GatewayOptions, ROOM_DIRECTORY, RoomDirectory, RoomHandle } from './room-directory';
import { SeatClaims } from './seat-token';
import { SeatSockets } from './seat-sockets';
import { SocketSession } from './socket-session';
import { SweepClock, sweepEveryMs } from './socket-liveness';
import { noWireObserver, WIRE_OBSERVER, WireObserver } from './wire-observer';

/** The request property where the upgrade check leaves the verified claims. */
export const CLAIMS_KEY = Symbol('seatClaims');
export type VerifiedRequest = IncomingMessage & { [CLAIMS_KEY]?: { claims: SeatClaims; expired: boolean } };

// A socket pushed out by a newer socket of its seat, or closed for silence, gets this long to
// answer the close (a browser answers at once). Then it is cut, so that a client that ignores
// closes, or is gone, cannot keep sockets open.
const CLOSE_GRACE_MS = 2000;

/**
 * The WebSocket edge at /ws. The token was already checked at the upgrade (see GameWsAdapter).
 * Here a socket is attached to its room, each text frame is parsed and handed to the room, and
 * every command gets exactly one reply. One timer sweeps every socket: a quiet socket is pinged,
 * and one that answers nothing within the window is closed with 4011 (its seat then shows as
 * disconnected).
 */
@WebSocketGateway({ path: '/ws' })
export class GameGateway implements OnGatewayConnection<WebSocket>, OnModuleDestroy {
  private readonly logger = new Logger('GameGateway');
  private readonly sessions = new Set<SocketSession>();
  private readonly seats: SeatSockets<SocketSession>;
  private readonly sweeper: NodeJS.Timeout;
  private readonly sweepClock: SweepClock;

  constructor(
    @Inject(ROOM_DIRECTORY) private readonly directory: RoomDirectory,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    @Optional() @Inject(WIRE_OBSERVER) private readonly observer: WireObserver = noWireObserver,
  ) {
    this.seats = new SeatSockets(options.socketsPerSeat);
    // One timer serves every socket, rather than one timer each. It is unref'd, so it never keeps the process alive.
    const every = sweepEveryMs(options);
    this.sweepClock = new SweepClock(every, performance.now());
    this.sweeper = setInterval(() => this.sweepSilent(), every);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async handleConnection(ws: WebSocket, req: VerifiedRequest): Promise<void> {
    const verified = req[CLAIMS_KEY];
    if (!verified) return ws.close(CloseCode.tokenInvalid, 'token invalid');
    if (verified.expired) return ws.close(CloseCode.tokenInvalid, 'token expired');
    const { claims } = verified;
    // A socket that asks for no profile, or for one the server lacks, gets JSON. Its first state frame says which profile it got.
    const wire: WireProfile = wireProfileOf(new URL(req.url ?? '/', 'http://x').searchParams.get('wire')) ?? 'json';
    const session = new SocketSession(
      ws,
      claims.role,
      claims.role === 'player' ? claims.seat : undefined,
      wire,
      this.options,
      this.observer,
      Date.now(),
    );

    // Frames that arrive while the room is being activated wait for the room, in order.
    let room: RoomHandle | undefined;
    const early: { data: WebSocket.RawData; isBinary: boolean; arrival: Arrival }[] = [];
    ws.on('message', (data, isBinary) => {
      const arrival: Arrival = { at: Date.now(), hr: performance.now() };
      session.heard(arrival.hr);
      if (room) this.onFrame(session, room, data, isBinary, arrival);
      else early.push({ data, isBinary, arrival });
    });
    this.sessions.add(session);
    this.observer.socketOpened(session.role);
    ws.on('close', () => {
      this.seats.remove(claims, session);
      this.sessions.delete(session);
      session.closed();
      this.observer.socketClosed(session.role);
      room?.detach();
    });

    try {
      const result = await this.directory.connect(session, claims);
      if (!result.ok) return session.close(result.closeCode, result.reason);
      if (ws.readyState !== WebSocket.OPEN) return result.room.detach();
      room = result.room;
      // Count the socket against its seat only once its room took it, so a socket the room refuses pushes nobody out.
      for (const old of this.seats.add(claims, session)) this.pushOut(old);
      for (const f of early.splice(0)) this.onFrame(session, room, f.data, f.isBinary, f.arrival);
    } catch (err) {
      this.logger.error(`could not attach a socket to room ${claims.code}: ${String(err)}`);
      session.close(CloseCode.shuttingDown, 'room unavailable, reconnect later');
    }
  }

  private onFrame(session: SocketSession, room: RoomHandle, data: WebSocket.RawData, isBinary: boolean, arrival: Arrival): void {
    if (session.isClosing) return;
    if (isBinary) return session.close(CloseCode.binaryFrame, 'binary frames are not accepted');
    const parsed = parseFrame(data.toString());
    if (!parsed.ok) {
      session.sendReply(errorReply(parsed.id, parsed.error));
      return room.refused?.('', parsed.error, arrival.at);
    }
    const { frame } = parsed;
    if (!session.takeCommandToken(arrival.at)) {
      const tooFast = new RoomException(RoomErrorCode.TooFast, 'too many commands; slow down');
      session.sendReply(errorReply(frame.id, tooFast));
      return room.refused?.(frame.type, tooFast, arrival.at);
    }
    if (!this.directory.accepting) {
      const draining = new RoomException(RoomErrorCode.ShuttingDown, 'the server is shutting down; retry after reconnecting');
      session.sendReply(errorReply(frame.id, draining));
      return room.refused?.(frame.type, draining, arrival.at);
    }
    room.submit(frame, arrival);
  }

  /**
   * Pushes out an old socket, because the newest socket of a seat wins (SOCKETS_PER_SEAT). The old
   * socket closes with 4010, on which clients do not reconnect.
   */
  private pushOut(session: SocketSession): void {
    // A socket that is closing already (its client left, or it was evicted) leaves by itself.
    if (session.isClosing) return;
    this.observer.socketReplaced();
    session.closeWithin(CloseCode.replaced, 'replaced by a newer connection of this seat', CLOSE_GRACE_MS);
  }

  /** Pings every socket that has been quiet a while, and closes those that did not answer the last ping in time. */
  private sweepSilent(): void {
    const now = performance.now();
    const stalled = this.sweepClock.stalledSince(now);
    for (const session of this.sessions) {
      if (session.sweep(now, stalled) !== 'silent') continue;
      this.observer.socketSilent();
      session.closeWithin(CloseCode.silent, 'no answer to ping', CLOSE_GRACE_MS);
    }
  }

  /** Closes every socket with 1001 (server going away). Clients then reconnect with backoff. */
  closeAll(reason = 'server shutting down'): void {
    for (const s of this.sessions) s.close(CloseCode.shuttingDown, reason);
  }

  get openSockets(): number {
    return this.sessions.size;
  }
}
