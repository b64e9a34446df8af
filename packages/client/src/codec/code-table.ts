// The shape of the compact profiles' tables (PROTOCOL.md section 7; docs/protocol.md section 11).
// This file uses only erasable TypeScript and no Node imports, because the browser client decodes
// with these very tables.

/** What a compact profile knows of one event type of a game. */
export interface EventCodes {
  /** compact-v2's code for the type: the index the type is sent as. */
  readonly code: number;
  /**
   * Fields that rarely change (a round's `total`, a count of seats), either top-level or a column
   * of a list (`scores[].playerId`, the roster in order). Each is omitted when it equals its value
   * in this type's last frame on the socket.
   */
  readonly sticky?: readonly string[];
  /** Fields omitted when they equal their default, by path: `points` or `scores[].points`. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** A top-level field that, when null, means the frame changes nothing for its viewer, so the frame is not sent. */
  readonly noopWhenNull?: string;
  /** What compact-v3 adds for this type. compact-v1 and compact-v2 ignore it. */
  readonly v3?: V3Codes;
}

/**
 * compact-v3's rules for one event type, on top of compact-v2's. Each rule names top-level
 * fields. A client rebuilds what the rules leave out from the frame itself and the socket's memory.
 */
export interface V3Codes {
  /** More sticky fields, like `sticky` above. */
  readonly sticky?: readonly string[];
  /**
   * Sticky fields whose last value is another type's field of the same name. For example,
   * `{index: 'question.open'}` leaves out a progress frame's `index` while it equals the open
   * question's.
   */
  readonly stickyAs?: Readonly<Record<string, string>>;
  /**
   * Number fields sent as their difference from another number field of the same frame, such as
   * `{closesAt: 'serverTime'}`.
   */
  readonly relativeTo?: Readonly<Record<string, string>>;
  /** When only this field is left of the data and its value is not an object, the frame is `[code, value]`. */
  readonly bare?: string;
}

/** One game's section of a table. The game's state frame, which is a socket's first frame, announces it. */
export interface GameCodes {
  readonly kind: string;
  readonly stateEvent: string;
  readonly events: Readonly<Record<string, EventCodes>>;
  /** Keys of data objects, at any depth, that are sent as one letter: the i-th key as KEY_LETTERS[i]. */
  readonly keys: readonly string[];
  /** For each of these keys, its string values, sent as their index in the list. */
  readonly enums: Readonly<Record<string, readonly string[]>>;
  /** Keys whose string values (or arrays of strings) are ids. Each socket numbers the ids it was sent. */
  readonly ids: readonly string[];
}

export interface CodeTable {
  readonly version: number;
  readonly games: readonly GameCodes[];
  /** The most ids one socket numbers. Later ids are sent in full. */
  readonly maxIds: number;
}

/** One-letter key codes, in the order of a section's `keys`. */
export const KEY_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Builds a table of compact-v2 codes, with one section per game. Each section is the game's own
 * and lives with the game. Codes are positions, so a list only ever grows at its end, and any
 * other change is a new version.
 */
export function codeTable(version: number, games: readonly GameCodes[], maxIds = 64): CodeTable {
  return { version, games, maxIds };
}

/** The section of the game whose state frame this type is, if any. */
export function gameOfStateEvent(table: CodeTable, type: string): GameCodes | undefined {
  return table.games.find((g) => g.stateEvent === type);
}
