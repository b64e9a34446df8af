import { ErrorStatus, RoomException, Status } from '@app/protocol';

/** The deck API's own refusals, beside the envelope's (RoomErrorCode: bad_data, forbidden). */
export enum DeckErrorCode {
  DeckNotFound = 'deck_not_found',
  /** The built-in deck, or one made before decks had edit tokens: nobody may change it. */
  DeckReadOnly = 'deck_read_only',
  BadCsv = 'bad_csv',
  UnsupportedMediaType = 'unsupported_media_type',
}

/** The one table from a deck code to its HTTP status. */
const STATUS: Record<DeckErrorCode, ErrorStatus> = {
  [DeckErrorCode.DeckNotFound]: { status: Status.unknownType },
  [DeckErrorCode.DeckReadOnly]: { status: Status.forbidden },
  [DeckErrorCode.BadCsv]: { status: Status.badRequest },
  [DeckErrorCode.UnsupportedMediaType]: { status: Status.badRequest, http: 415 },
};

export function deckError(code: DeckErrorCode, message: string): RoomException {
  return new RoomException(code, message, STATUS[code]);
}

/** `bad_csv`, naming the first bad cell: its line in the file (1 = the header) and its column (1 = the question). */
export class BadCsvException extends RoomException {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(DeckErrorCode.BadCsv, `line ${line}, column ${column}: ${message}`, STATUS[DeckErrorCode.BadCsv]);
  }

  /** The fields the HTTP answer carries beside statusCode, code and message. */
  get details(): { line: number; column: number } {
    return { line: this.line, column: this.column };
  }
}
