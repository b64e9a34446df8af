import { codeTable, CodeTable, CommandFrame, RoomException } from '@app/protocol';
import { Arrival, Viewer } from '@app/room-engine';
import { SeatClaims } from './seat-token';

/** A socket's handle on the room it joined. */
export interface RoomHandle {
  /** Hands a command to the room. The room sends the reply to the socket itself, in order with the events it causes. */
  submit(frame: CommandFrame, arrival: Arrival): void;
  /**
   * Reports a frame the gateway refused itself (not a valid frame, sent too fast, or the server is
   * draining). The room records it with its own refusals. `type` is empty when the frame had none.
   */
  refused?(type: string, error: RoomException, at: number): void;
  detach(): void;
}

export type ConnectResult = { ok: true; room: RoomHandle } | { ok: false; closeCode: number; reason: string };

/** Whether a socket may be opened now. If not, it gives the upgrade's HTTP status and when to try again. */
export type AdmitResult = { ok: true } | { ok: false; status: number; retryAfterSeconds: number; message: string };

/**
 * What the gateway needs of the rooms, provided by the application. The gateway parses, authorizes
 * and hands over; the room decides.
 */
export interface RoomDirectory {
  /**
   * Runs at the upgrade, before the socket exists. It makes the socket's room ready to serve it, or
   * refuses the socket.
   */
  admit(claims: SeatClaims): Promise<AdmitResult>;
  connect(viewer: Viewer, claims: SeatClaims): Promise<ConnectResult>;
  /** False while the server drains, when new commands get 503. */
  readonly accepting: boolean;
}

export const ROOM_DIRECTORY = Symbol('ROOM_DIRECTORY');
export const SEAT_TOKENS = Symbol('SEAT_TOKENS');
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

export interface GatewayOptions {
  /** The origins allowed to open a socket. An empty list allows any, because native apps send none. */
  readonly allowedOrigins: readonly string[];
  /** How many commands per second a socket may send on average, and the burst allowed above that. */
  readonly commandsPerSecond: number;
  readonly commandBurst: number;
  /** How many bad frames a socket may send before it is closed with 4008. */
  readonly badFrameLimit: number;
  /**
   * How much a socket may have sent that its client has not read yet (in this process or in the
   * kernel's buffers), in bytes and in frames. One more frame past either limit evicts the socket
   * with 4009.
   */
  readonly sendQueueBytes: number;
  readonly sendQueueFrames: number;
  /** How many open sockets one seat may hold. The newest wins, and the oldest one past the limit is closed with 4010. */
  readonly socketsPerSeat: number;
  /**
   * How many sockets this instance may hold, counting upgrades it is still deciding. Past that, an
   * upgrade gets 503 with Retry-After. 0 means no cap.
   */
  readonly maxSockets: number;
  /**
   * A socket from which nothing is heard for `pingIdleMs` is pinged. If it then answers nothing
   * within `pongTimeoutMs`, it is closed with 4011, and its seat shows as disconnected.
   */
  readonly pingIdleMs: number;
  readonly pongTimeoutMs: number;
  /** The compact-v2 code table with each game's section. The app hands it over, because the gateway knows no game. */
  readonly codes: CodeTable;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  allowedOrigins: [],
  commandsPerSecond: 20,
  commandBurst: 40,
  badFrameLimit: 20,
  sendQueueBytes: 256 * 1024,
  sendQueueFrames: 1024,
  socketsPerSeat: 3,
  maxSockets: 0,
  pingIdleMs: 20_000,
  pongTimeoutMs: 30_000,
  codes: codeTable(1, []),
};
