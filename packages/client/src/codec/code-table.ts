// The shape of the compact profiles' tables (PROTOCOL.md section 7; docs/protocol.md section 11). Only
// erasable TypeScript and no Node imports: the browser client decodes with these very tables.

/** What a compact profile knows of one event type of a game. */
export interface EventCodes {
  /** compact-v2's code for the type: the index it is sent as. */
  readonly code: number;
  /**
   * Fields that rarely change (a round's `total`, a count of seats), top-level or a column of a
   * list (`scores[].playerId`, the roster in order): omitted when equal to their value in this
   * type's last frame on the socket.
   */
  readonly sticky?: readonly string[];
  /** Fields omitted when equal to their default, by path: `points` or `scores[].points`. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** The frame changes nothing for its viewer when this top-level field is null: it is not sent. */
  readonly noopWhenNull?: string;
  /** What compact-v3 adds for this type; compact-v1 and compact-v2 ignore it. */
  readonly v3?: V3Codes;
}

/**
 * compact-v3's rules for one event type, on top of compact-v2's. Each names top-level fields;
 * what they leave out a client rebuilds from the frame itself and the socket's memory.
 */
export interface V3Codes {
  /** More sticky fields, as `sticky` above. */
  readonly sticky?: readonly string[];
  /**
   * Sticky fields whose last value is another type's field of the same name: `{index:
   * 'question.open'}` leaves out a progress frame's `index` while it is the open question's.
   */
  readonly stickyAs?: Readonly<Record<string, string>>;
  /** Number fields sent as their difference from another number field of the same frame: `{closesAt: 'serverTime'}`. */
  readonly relativeTo?: Readonly<Record<string, string>>;
  /** When only this field is left of the data and its value is not an object, the frame is `[code, value]`. */
  readonly bare?: string;
}

/** One game's section of a table: announced by its state frame, the first frame of a socket. */
export interface GameCodes {
  readonly kind: string;
  readonly stateEvent: string;
  readonly events: Readonly<Record<string, EventCodes>>;
  /** Keys of data objects, at any depth, sent as one letter: the i-th key as KEY_LETTERS[i]. */
  readonly keys: readonly string[];
  /** String values of these keys sent as their index in the list. */
  readonly enums: Readonly<Record<string, readonly string[]>>;
  /** Keys whose string values (or arrays of strings) are ids: each socket numbers the ids it was sent. */
  readonly ids: readonly string[];
}

export interface CodeTable {
  readonly version: number;
  readonly games: readonly GameCodes[];
  /** Ids one socket numbers at most; later ones are sent in full. */
  readonly maxIds: number;
}

/** One-letter key codes, in the order of a section's `keys`. */
export const KEY_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A table of compact-v2 codes: one section per game, each the game's own (it lives with the
 * game). Codes are positions: a list only ever grows at its end, and any other change is a new
 * version.
 */
export function codeTable(version: number, games: readonly GameCodes[], maxIds = 64): CodeTable {
  return { version, games, maxIds };
}

/** The section of the game whose state frame this type is, if any. */
export function gameOfStateEvent(table: CodeTable, type: string): GameCodes | undefined {
  return table.games.find((g) => g.stateEvent === type);
}
