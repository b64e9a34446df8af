import { ErrorStatus, RoomErrorCode, RoomException, Status } from '@app/protocol';

/** The card table's own refusals, which it uses beside the envelope's (RoomErrorCode). */
export enum CardsErrorCode {
  NotYourTurn = 'not_your_turn',
  IllegalAction = 'illegal_action',
  BadAmount = 'bad_amount',
  /** Refuses a rebuy while a hand is on. */
  NotBetweenHands = 'not_between_hands',
  /** Refuses a rebuy while the seat still has chips left. */
  HasChips = 'has_chips',
}

/** The one place that maps a card-table code to its reply status. */
const STATUS: Record<CardsErrorCode, ErrorStatus> = {
  [CardsErrorCode.NotYourTurn]: { status: Status.conflict },
  [CardsErrorCode.IllegalAction]: { status: Status.conflict },
  [CardsErrorCode.BadAmount]: { status: Status.badRequest },
  [CardsErrorCode.NotBetweenHands]: { status: Status.conflict },
  [CardsErrorCode.HasChips]: { status: Status.conflict },
};

export function cardsError(code: CardsErrorCode | RoomErrorCode, message: string): RoomException {
  return new RoomException(code, message, STATUS[code as CardsErrorCode]);
}

export function refuse(code: CardsErrorCode | RoomErrorCode, message: string): never {
  throw cardsError(code, message);
}
