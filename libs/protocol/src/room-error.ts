import { Status, StatusCode } from './statuses';

/**
 * Every refusal the room can give, by wire code. One table maps a code to its reply status;
 * the HTTP layer maps the same codes to HTTP statuses in one other place.
 */
export enum RoomErrorCode {
  // 400: the frame or its data is malformed
  BadFrame = 'bad_frame',
  BadId = 'bad_id',
  BadData = 'bad_data',
  ChoiceOutOfRange = 'choice_out_of_range',
  // 403: this role may not do that
  Forbidden = 'forbidden',
  /** HTTP only: no valid token (401). */
  Unauthorized = 'unauthorized',
  // 404
  UnknownType = 'unknown_type',
  RoomNotFound = 'room_not_found',
  PlayerNotFound = 'player_not_found',
  DeckNotFound = 'deck_not_found',
  // 409: valid, but not now
  WrongPhase = 'wrong_phase',
  NoPlayers = 'no_players',
  QuestionClosed = 'question_closed',
  AlreadyAnswered = 'already_answered',
  NotInGame = 'not_in_game',
  RematchClosed = 'rematch_closed',
  AlreadyVoted = 'already_voted',
  RoomFull = 'room_full',
  GameInProgress = 'game_in_progress',
  RoomClosed = 'room_closed',
  SeatGone = 'seat_gone',
  // 429 / 503
  TooFast = 'too_fast',
  MailboxFull = 'mailbox_full',
  DatabaseUnavailable = 'database_unavailable',
  ShuttingDown = 'shutting_down',
}

const REPLY_STATUS: Record<RoomErrorCode, StatusCode> = {
  [RoomErrorCode.BadFrame]: Status.badRequest,
  [RoomErrorCode.BadId]: Status.badRequest,
  [RoomErrorCode.BadData]: Status.badRequest,
  [RoomErrorCode.ChoiceOutOfRange]: Status.badRequest,
  [RoomErrorCode.Forbidden]: Status.forbidden,
  [RoomErrorCode.Unauthorized]: Status.forbidden,
  [RoomErrorCode.UnknownType]: Status.unknownType,
  [RoomErrorCode.RoomNotFound]: Status.unknownType,
  [RoomErrorCode.PlayerNotFound]: Status.conflict,
  [RoomErrorCode.DeckNotFound]: Status.unknownType,
  [RoomErrorCode.WrongPhase]: Status.conflict,
  [RoomErrorCode.NoPlayers]: Status.conflict,
  [RoomErrorCode.QuestionClosed]: Status.conflict,
  [RoomErrorCode.AlreadyAnswered]: Status.conflict,
  [RoomErrorCode.NotInGame]: Status.conflict,
  [RoomErrorCode.RematchClosed]: Status.conflict,
  [RoomErrorCode.AlreadyVoted]: Status.conflict,
  [RoomErrorCode.RoomFull]: Status.conflict,
  [RoomErrorCode.GameInProgress]: Status.conflict,
  [RoomErrorCode.RoomClosed]: Status.conflict,
  [RoomErrorCode.SeatGone]: Status.conflict,
  [RoomErrorCode.TooFast]: Status.tooFast,
  [RoomErrorCode.MailboxFull]: Status.unavailable,
  [RoomErrorCode.DatabaseUnavailable]: Status.unavailable,
  [RoomErrorCode.ShuttingDown]: Status.unavailable,
};

export function replyStatusOf(code: RoomErrorCode): StatusCode {
  return REPLY_STATUS[code];
}

/** A refusal with a wire code and a message a person can act on. */
export class RoomException extends Error {
  constructor(
    readonly code: RoomErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RoomException';
  }

  get status(): StatusCode {
    return replyStatusOf(this.code);
  }
}
