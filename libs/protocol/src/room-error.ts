import { Status, StatusCode } from '@game-rooms/client';

/**
 * The refusals of the envelope and of any room, whatever its game. A game adds its own codes, with
 * their statuses, in its own library. Every refusal travels as a RoomException.
 */
export enum RoomErrorCode {
  // 400: the frame or its data is malformed
  BadFrame = 'bad_frame',
  BadId = 'bad_id',
  BadData = 'bad_data',
  // 403: this role may not do that
  Forbidden = 'forbidden',
  /** HTTP only: the request has no valid token (401). */
  Unauthorized = 'unauthorized',
  // 404
  UnknownType = 'unknown_type',
  RoomNotFound = 'room_not_found',
  // 409: valid, but not now
  RoomClosed = 'room_closed',
  SeatGone = 'seat_gone',
  /** The room has as many spectators as it may hold (SPECTATORS_PER_ROOM). Retry later. */
  SpectatorsFull = 'spectators_full',
  /** HTTP only: the room is closed and no longer live anywhere, so the answer comes from its row (410). */
  RoomGone = 'room_gone',
  // 429 / 503
  TooFast = 'too_fast',
  MailboxFull = 'mailbox_full',
  DatabaseUnavailable = 'database_unavailable',
  ShuttingDown = 'shutting_down',
  /**
   * Another instance holds the room's lease (section 10). Retry shortly: the room either moves
   * here, or the client reaches the instance that holds it.
   */
  RoomElsewhere = 'room_elsewhere',
  /** HTTP only: this client address opened too many rooms or tables lately (429, with Retry-After). */
  RateLimited = 'rate_limited',
  /** This instance holds as many live rooms as it may. Retry later, or reach another instance through the proxy. */
  RoomsAtCapacity = 'rooms_at_capacity',
  /** This instance is overloaded (PROTOCOL.md section 14). New work is shed, and rooms already live go on. */
  Overloaded = 'overloaded',
}

/** A refusal's reply status and, where it differs, its HTTP status. */
export interface ErrorStatus {
  readonly status: StatusCode;
  readonly http?: number;
}

const STATUS: Record<RoomErrorCode, ErrorStatus> = {
  [RoomErrorCode.BadFrame]: { status: Status.badRequest },
  [RoomErrorCode.BadId]: { status: Status.badRequest },
  [RoomErrorCode.BadData]: { status: Status.badRequest },
  [RoomErrorCode.Forbidden]: { status: Status.forbidden },
  [RoomErrorCode.Unauthorized]: { status: Status.forbidden, http: 401 },
  [RoomErrorCode.UnknownType]: { status: Status.unknownType },
  [RoomErrorCode.RoomNotFound]: { status: Status.unknownType },
  [RoomErrorCode.RoomClosed]: { status: Status.conflict },
  [RoomErrorCode.SeatGone]: { status: Status.conflict },
  [RoomErrorCode.SpectatorsFull]: { status: Status.conflict },
  [RoomErrorCode.RoomGone]: { status: Status.conflict, http: 410 },
  [RoomErrorCode.TooFast]: { status: Status.tooFast },
  [RoomErrorCode.MailboxFull]: { status: Status.unavailable },
  [RoomErrorCode.DatabaseUnavailable]: { status: Status.unavailable },
  [RoomErrorCode.ShuttingDown]: { status: Status.unavailable },
  [RoomErrorCode.RoomElsewhere]: { status: Status.unavailable },
  [RoomErrorCode.RateLimited]: { status: Status.tooFast },
  [RoomErrorCode.RoomsAtCapacity]: { status: Status.unavailable },
  [RoomErrorCode.Overloaded]: { status: Status.unavailable },
};

/**
 * A refusal with a wire code and a message a person can act on. The code's statuses come from one
 * table per context: this library's table for the envelope's codes, and each game's table for its
 * own codes.
 */
export class RoomException extends Error {
  readonly status: StatusCode;
  /** The HTTP status when the same refusal answers an HTTP request. */
  readonly httpStatus: number;

  constructor(
    readonly code: string,
    message: string,
    statuses: ErrorStatus = STATUS[code as RoomErrorCode] ?? { status: Status.badRequest },
    /** How many seconds later trying again may succeed. HTTP sends it as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RoomException';
    this.status = statuses.status;
    this.httpStatus = statuses.http ?? statuses.status;
  }
}

/**
 * A refusal that may succeed later, as plain data. The front door answers floods with these, because
 * building an Error captures a stack trace, and that costs more than the rest of a refusal does.
 */
export interface LaterRefusal {
  readonly code: RoomErrorCode;
  readonly httpStatus: number;
  readonly message: string;
  /** A whole number of seconds, at least 1. */
  readonly retryAfterSeconds: number;
}

/** The data of a refusal with one of this library's codes that may succeed later, in `seconds`. */
export function refusalLater(code: RoomErrorCode, message: string, seconds: number): LaterRefusal {
  const { status, http } = STATUS[code];
  return { code, httpStatus: http ?? status, message, retryAfterSeconds: Math.max(1, Math.ceil(seconds)) };
}

/** The exception that throws a LaterRefusal, for Nest's guards and the error filter. */
export function raised(refusal: LaterRefusal): RoomException {
  return retryLater(refusal.code, refusal.message, refusal.retryAfterSeconds);
}

/**
 * Builds a refusal with one of this library's codes that may succeed later, saying when: a whole
 * number of seconds, at least 1.
 */
export function retryLater(code: RoomErrorCode, message: string, seconds: number): RoomException {
  return new RoomException(code, message, STATUS[code], Math.max(1, Math.ceil(seconds)));
}

/**
 * Seconds to wait before trying again, for refusals that carry no wait of their own. Each of these
 * conditions is over in a moment (a room moving between instances, a database that answers again,
 * a full mailbox, a drain). The limits give their own wait (RoomException.retryAfterSeconds).
 */
const RETRY_AFTER_SECONDS: Partial<Record<string, number>> = {
  [RoomErrorCode.RoomElsewhere]: 1,
  [RoomErrorCode.DatabaseUnavailable]: 2,
  [RoomErrorCode.MailboxFull]: 1,
  [RoomErrorCode.ShuttingDown]: 1,
};

/**
 * When a refusal with this code (and this wait of its own, if any) may be tried again, or
 * undefined when there is no hint.
 */
export function retryAfterFor(code: string, own?: number): number | undefined {
  return own ?? RETRY_AFTER_SECONDS[code];
}
