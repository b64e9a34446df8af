import { Status, StatusCode } from '@game-rooms/client';

/**
 * The refusals of the envelope and of any room, whatever its game. A game adds its own codes
 * (with their statuses) in its own library; every refusal travels as a RoomException.
 */
export enum RoomErrorCode {
  // 400: the frame or its data is malformed
  BadFrame = 'bad_frame',
  BadId = 'bad_id',
  BadData = 'bad_data',
  // 403: this role may not do that
  Forbidden = 'forbidden',
  /** HTTP only: no valid token (401). */
  Unauthorized = 'unauthorized',
  // 404
  UnknownType = 'unknown_type',
  RoomNotFound = 'room_not_found',
  // 409: valid, but not now
  RoomClosed = 'room_closed',
  SeatGone = 'seat_gone',
  // 429 / 503
  TooFast = 'too_fast',
  MailboxFull = 'mailbox_full',
  DatabaseUnavailable = 'database_unavailable',
  ShuttingDown = 'shutting_down',
  /** Another instance holds the room's lease (section 10): retry shortly, it moves or comes here. */
  RoomElsewhere = 'room_elsewhere',
  /** HTTP only: this client address opened too many rooms or tables lately (429, Retry-After). */
  RateLimited = 'rate_limited',
  /** This instance holds as many live rooms as it may: retry later, or through the proxy elsewhere. */
  RoomsAtCapacity = 'rooms_at_capacity',
  /** This instance is overloaded (PROTOCOL.md section 14): new work is shed, rooms already live go on. */
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
 * A refusal with a wire code and a message a person can act on. The code's statuses come from
 * one table per context: this library's for the envelope, each game's for its own codes.
 */
export class RoomException extends Error {
  readonly status: StatusCode;
  /** The HTTP status when the same refusal answers an HTTP request. */
  readonly httpStatus: number;

  constructor(
    readonly code: string,
    message: string,
    statuses: ErrorStatus = STATUS[code as RoomErrorCode] ?? { status: Status.badRequest },
    /** When trying again may succeed: sent over HTTP as `Retry-After`. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RoomException';
    this.status = statuses.status;
    this.httpStatus = statuses.http ?? statuses.status;
  }
}

/** A refusal of this library's that may succeed later, and when (a whole number of seconds, at least 1). */
export function retryLater(code: RoomErrorCode, message: string, seconds: number): RoomException {
  return new RoomException(code, message, STATUS[code], Math.max(1, Math.ceil(seconds)));
}

/**
 * Seconds to wait before trying again, for refusals that carry none of their own: each of these
 * is over in a moment (a room moving between instances, a database that answers again, a full
 * mailbox, a drain); the limits say their own (RoomException.retryAfterSeconds).
 */
const RETRY_AFTER_SECONDS: Partial<Record<string, number>> = {
  [RoomErrorCode.RoomElsewhere]: 1,
  [RoomErrorCode.DatabaseUnavailable]: 2,
  [RoomErrorCode.MailboxFull]: 1,
  [RoomErrorCode.ShuttingDown]: 1,
};

/** When a refusal with this code (and this hint of its own, if any) may be tried again; undefined: no hint. */
export function retryAfterFor(code: string, own?: number): number | undefined {
  return own ?? RETRY_AFTER_SECONDS[code];
}
