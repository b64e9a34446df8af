import { codeTable, CodeTable, CommandFrame, RoomException } from '@app/protocol';
import { Arrival, Viewer } from '@app/room-engine';
import { SeatClaims } from './seat-token';

/** A socket's handle on the room it joined. */
export interface RoomHandle {
  /** The room sends the reply to the socket itself, in order with the events it causes. */
  submit(frame: CommandFrame, arrival: Arrival): void;
  /**
   * A frame the gateway refused itself (not a frame, too fast, the server draining): the room
   * records it with its own refusals. `type` is empty when the frame had none.
   */
  refused?(type: string, error: RoomException, at: number): void;
  detach(): void;
}

export type ConnectResult = { ok: true; room: RoomHandle } | { ok: false; closeCode: number; reason: string };

/** Whether a socket may be opened now; if not, the upgrade's HTTP status and when to try again. */
export type AdmitResult = { ok: true } | { ok: false; status: number; retryAfterSeconds: number; message: string };

/**
 * What the gateway needs of the rooms, provided by the application: the gateway parses,
 * authorizes and hands over; the room decides.
 */
export interface RoomDirectory {
  /** At the upgrade, before the socket exists: its room is made ready to serve it, or it is refused. */
  admit(claims: SeatClaims): Promise<AdmitResult>;
  connect(viewer: Viewer, claims: SeatClaims): Promise<ConnectResult>;
  /** False while the server drains: new commands get 503. */
  readonly accepting: boolean;
}

export const ROOM_DIRECTORY = Symbol('ROOM_DIRECTORY');
export const SEAT_TOKENS = Symbol('SEAT_TOKENS');
export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

export interface GatewayOptions {
  /** Origins allowed to open a socket; empty allows any (native apps send none). */
  readonly allowedOrigins: readonly string[];
  /** Commands per second a socket may send on average, and the burst above it. */
  readonly commandsPerSecond: number;
  readonly commandBurst: number;
  /** Bad frames a socket may send before it is closed with 4008. */
  readonly badFrameLimit: number;
  /**
   * What a socket may have sent that its client has not read yet (in this process or in the
   * kernel's buffers), in bytes and in frames; one more frame past either evicts it with 4009.
   */
  readonly sendQueueBytes: number;
  readonly sendQueueFrames: number;
  /** Open sockets one seat may hold; the newest wins, the oldest past it is closed with 4010. */
  readonly socketsPerSeat: number;
  /** Sockets this instance holds (and upgrades it is deciding); past it an upgrade gets 503 with Retry-After. 0: no cap. */
  readonly maxSockets: number;
  /**
   * A socket quiet for `pingIdleMs` (nothing heard from it) is pinged; one that then answers nothing
   * within `pongTimeoutMs` is closed with 4011, and its seat shows disconnected.
   */
  readonly pingIdleMs: number;
  readonly pongTimeoutMs: number;
  /** The compact-v2 code table: each game's section, handed over by the app (the gateway knows no game). */
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
