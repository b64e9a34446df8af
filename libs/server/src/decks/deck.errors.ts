import { ErrorStatus, RoomException, Status } from '@app/protocol';

/** The deck API's own refusals. It also uses the envelope's refusals (RoomErrorCode: bad_data, forbidden). */
export enum DeckErrorCode {
  DeckNotFound = 'deck_not_found',
  /** Nobody may change the built-in deck, or a deck made before decks had edit tokens. */
  DeckReadOnly = 'deck_read_only',
  BadCsv = 'bad_csv',
  UnsupportedMediaType = 'unsupported_media_type',
}

/** The only table that maps a deck error code to its HTTP status. */
const STATUS: Record<DeckErrorCode, ErrorStatus> = {
  [DeckErrorCode.DeckNotFound]: { status: Status.unknownType },
  [DeckErrorCode.DeckReadOnly]: { status: Status.forbidden },
  [DeckErrorCode.BadCsv]: { status: Status.badRequest },
  [DeckErrorCode.UnsupportedMediaType]: { status: Status.badRequest, http: 415 },
};

export function deckError(code: DeckErrorCode, message: string): RoomException {
  return new RoomException(code, message, STATUS[code]);
}

/**
 * The `bad_csv` refusal. It names the first bad cell by its line in the file (1 is the header) and its
 * column (1 is the question).
 */
export class BadCsvException extends RoomException {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(DeckErrorCode.BadCsv, `line ${line}, column ${column}: ${message}`, STATUS[DeckErrorCode.BadCsv]);
  }

  /** The fields the HTTP answer carries besides statusCode, code and message. */
  get details(): { line: number; column: number } {
    return { line: this.line, column: this.column };
  }
}
