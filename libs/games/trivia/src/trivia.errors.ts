import { ErrorStatus, RoomErrorCode, RoomException, Status } from '@app/protocol';

/** Trivia's own refusals. Trivia also uses the envelope's refusals (RoomErrorCode). */
export enum TriviaErrorCode {
  ChoiceOutOfRange = 'choice_out_of_range',
  PlayerNotFound = 'player_not_found',
  DeckNotFound = 'deck_not_found',
  WrongPhase = 'wrong_phase',
  NoPlayers = 'no_players',
  QuestionClosed = 'question_closed',
  AlreadyAnswered = 'already_answered',
  NotInGame = 'not_in_game',
  RematchClosed = 'rematch_closed',
  AlreadyVoted = 'already_voted',
  RoomFull = 'room_full',
  GameInProgress = 'game_in_progress',
  NameTaken = 'name_taken',
  /** The answer's field is not the one its question's kind takes (for example, a choice for a text question). */
  WrongAnswerKind = 'wrong_answer_kind',
  /** `room.next` was sent in a room where the clock moves the game on. */
  ClockPaced = 'clock_paced',
}

/** The only table that maps a trivia error code to its reply status (and to its HTTP status where that differs). */
const STATUS: Record<TriviaErrorCode, ErrorStatus> = {
  [TriviaErrorCode.ChoiceOutOfRange]: { status: Status.badRequest },
  [TriviaErrorCode.PlayerNotFound]: { status: Status.conflict, http: 404 },
  [TriviaErrorCode.DeckNotFound]: { status: Status.unknownType },
  [TriviaErrorCode.WrongPhase]: { status: Status.conflict },
  [TriviaErrorCode.NoPlayers]: { status: Status.conflict },
  [TriviaErrorCode.QuestionClosed]: { status: Status.conflict },
  [TriviaErrorCode.AlreadyAnswered]: { status: Status.conflict },
  [TriviaErrorCode.NotInGame]: { status: Status.conflict },
  [TriviaErrorCode.RematchClosed]: { status: Status.conflict },
  [TriviaErrorCode.AlreadyVoted]: { status: Status.conflict },
  [TriviaErrorCode.RoomFull]: { status: Status.conflict },
  [TriviaErrorCode.GameInProgress]: { status: Status.conflict },
  [TriviaErrorCode.NameTaken]: { status: Status.conflict },
  [TriviaErrorCode.WrongAnswerKind]: { status: Status.badRequest },
  [TriviaErrorCode.ClockPaced]: { status: Status.conflict },
};

export function triviaError(code: TriviaErrorCode | RoomErrorCode, message: string): RoomException {
  return new RoomException(code, message, STATUS[code as TriviaErrorCode]);
}

export function refuse(code: TriviaErrorCode | RoomErrorCode, message: string): never {
  throw triviaError(code, message);
}
