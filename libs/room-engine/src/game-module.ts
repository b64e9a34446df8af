import type { ZodType } from 'zod';
import { GameCodes, RoomException } from '@app/protocol';
import { Actor, GameRules } from './game-rules';

/** What the server adds when a room opens. */
export interface OpenedWith {
  /** When the room opened (epoch ms, by the server's clock). */
  readonly at: number;
  /** How long a room may wait without a game before it closes (the server's setting). */
  readonly expirySeconds: number;
  /**
   * The room's copy of its deck, for a game that plays from one. The items are the game's own,
   * checked against the item schema the game declares (`defineGame({ deck })`). The engine never
   * reads an item.
   */
  readonly deck?: { readonly id: string; readonly items: readonly unknown[] };
}

/** How a room of a game opens over HTTP: `POST /api/rooms {game, ...settings}`. */
export interface GameOpening<S, Settings = any> {
  /**
   * Reads the body's settings with `schema` and fills in their defaults. It uses `readBody`, which
   * throws a 400 RoomException naming the first bad field. `seed` is a random integer the server
   * drew, for a game that deals from one (a server started for tests may let the body name it).
   */
  settings(body: Readonly<Record<string, unknown>>, seed: number): Settings;
  /**
   * The body as a zod schema. The API document shows this same schema (`z.toJSONSchema`), so what
   * validates the body is what the document shows.
   */
  readonly schema: ZodType;
  /** Who the opener is: the room's host, or its first player (whose seat id is `ids.opener`). */
  readonly openerRole: 'host' | 'player';
  /**
   * For a game that plays from a deck: the deck a room with these settings copies. When it names
   * none, the room copies the server's built-in deck.
   */
  deckOf?(settings: Settings): string | undefined;
  /** The room's first state. */
  state(ids: { readonly roomId: string; readonly code: string; readonly opener: string }, settings: Settings, opened: OpenedWith): S;
}

/** What the console's list of finished games shows of one game (`GET /admin/api/finished`), read from its summary. */
export interface FinishedRecord {
  /** The host's name, for a game that has a host. */
  readonly hostName: string | null;
  /** The names of everyone who played the game. */
  readonly players: readonly string[];
  /** Who won (names joined when tied), or null for a draw or when nobody won. */
  readonly winner: string | null;
  /** When the game started (epoch ms), if the summary says so. */
  readonly startedAt?: number;
}

/**
 * Everything the server needs of one game, as one object registered on one line
 * (`apps/game-server/src/games.ts`). The server loops over the registry, and nothing outside a
 * game's folder names the game. This is the engine's internal form, with every member filled in.
 * A game author does not write it but calls `defineGame({...})` (define-game.ts), which builds it.
 */
export interface GameModule<S = any, C extends { readonly id: string; readonly type: string } = any> {
  /** The game's name. It appears in `rooms.game`, in the console's rows, and as the code table's section. */
  readonly kind: string;
  readonly rules: GameRules<S, C>;
  /** The game's section of the compact-v2 code table. */
  readonly codes: GameCodes;
  /**
   * What `GET /api/rooms/{code}` answers anyone. It never holds a secret: nothing that one seat
   * alone may see, and nothing not revealed yet.
   */
  publicSummary(state: S): Record<string, unknown>;
  /** The shapes the API document shows for this game, as zod schemas. `summary` is the shape of `publicSummary`. */
  readonly schemas: { readonly summary: ZodType };
  /** What an operator's room detail adds to the row every room has. */
  operatorDetail(state: S): Record<string, unknown>;
  /** Whether this seat's token may close the room (`DELETE /api/rooms/{code}`). */
  mayClose(state: S, actor: Actor): boolean;
  /** Builds a refusal with one of the game's codes (or the envelope's), with the status the game gives that code. */
  error(code: string, message: string): RoomException;
  /**
   * For games that seat players by name over HTTP (`POST /api/rooms/{code}/players`): the name of
   * the rules' proposal that seats one. The server calls it with `{ playerId, name }`.
   */
  readonly joinProposal?: string;
  /** How a room of this game opens over HTTP. */
  readonly opening?: GameOpening<S>;
  /**
   * For a game that reports results: a finished game's results, read from the summary it reported
   * (`Outcome.finished`). Players read them by the game's link (`GET /api/results/{id}`, `.csv`).
   */
  readonly results?: {
    json(summary: any): unknown;
    readonly csvHeader: readonly string[];
    csvRows(summary: any): string[][];
  };
  /** A finished game's line in the console, built from the summary it reported. Without it, the line names no players. */
  finishedRecord?(summary: any): FinishedRecord;
  /** A seat's name in this state, if it has one. The console shows it as the player of a refused command. */
  seatName?(state: S, seat: string): string | undefined;
  /**
   * Rebuilds the rules' state from a snapshot as loaded (what `rules.snapshotOf` kept, as JSON),
   * adding back what the room was opened with. When absent, the snapshot itself is the state.
   */
  fromSnapshot?(json: unknown, opened: { readonly deck?: readonly unknown[] }): S;
}
