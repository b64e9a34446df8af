import type { ZodType } from 'zod';
import { GameCodes, RoomException } from '@app/protocol';
import { Actor, GameRules } from './game-rules';

/** What the server adds when a room opens. */
export interface OpenedWith {
  /** When (epoch ms, the server's clock). */
  readonly at: number;
  /** How long a room may wait without a game before it closes (the server's setting). */
  readonly expirySeconds: number;
  /**
   * The copy of its deck, for a game that plays from one: the items are the game's own, checked
   * against the item schema it declares (`defineGame({ deck })`); the engine never reads one.
   */
  readonly deck?: { readonly id: string; readonly items: readonly unknown[] };
}

/** How a room of a game opens over HTTP: `POST /api/rooms {game, ...settings}`. */
export interface GameOpening<S, Settings = any> {
  /**
   * The body's settings with their defaults, read with `schema` (`readBody`: a 400 RoomException
   * naming the first bad field). `seed` is a random integer the server drew, for a game that
   * deals from one (a server started for tests may let the body name it).
   */
  settings(body: Readonly<Record<string, unknown>>, seed: number): Settings;
  /** That body as a zod schema: what validates it is what the API document shows (`z.toJSONSchema`). */
  readonly schema: ZodType;
  /** Who the opener is: the room's host, or its first player (whose seat id is `ids.opener`). */
  readonly openerRole: 'host' | 'player';
  /** For a game that plays from a deck: the deck a room with these settings copies (none named: the server's built-in deck). */
  deckOf?(settings: Settings): string | undefined;
  /** The room's first state. */
  state(ids: { readonly roomId: string; readonly code: string; readonly opener: string }, settings: Settings, opened: OpenedWith): S;
}

/** What the console's list of finished games shows of one (`GET /admin/api/finished`), read from its summary. */
export interface FinishedRecord {
  /** The host's name, for a game that has a host. */
  readonly hostName: string | null;
  /** Everyone who played it, by name. */
  readonly players: readonly string[];
  /** Who won (names joined when tied), or null: a draw, or nobody. */
  readonly winner: string | null;
  /** When it started (epoch ms), when the summary says so. */
  readonly startedAt?: number;
}

/**
 * Everything the server needs of one game, as one object registered on one line
 * (`apps/game-server/src/rooms/games.ts`): the server loops over the registry, and nothing
 * outside a game's folder names the game. This is the engine's internal form, with every member
 * filled in: a game author writes `defineGame({...})` (define-game.ts), which makes it.
 */
export interface GameModule<S = any, C extends { readonly id: string; readonly type: string } = any> {
  /** The game's name: `rooms.game`, the console's rows, the code table's section. */
  readonly kind: string;
  readonly rules: GameRules<S, C>;
  /** Its section of the compact-v2 code table. */
  readonly codes: GameCodes;
  /** What `GET /api/rooms/{code}` answers anyone: never a secret (what one seat alone may see, what is not revealed yet). */
  publicSummary(state: S): Record<string, unknown>;
  /** The shapes the API document shows for this game, as zod schemas: `summary` is `publicSummary`'s. */
  readonly schemas: { readonly summary: ZodType };
  /** What an operator's room detail adds to the row every room has. */
  operatorDetail(state: S): Record<string, unknown>;
  /** Whether this seat's token may close the room (`DELETE /api/rooms/{code}`). */
  mayClose(state: S, actor: Actor): boolean;
  /** A refusal with one of the game's codes (or the envelope's), with the statuses the game gives it. */
  error(code: string, message: string): RoomException;
  /**
   * Seats a player by name over HTTP (`POST /api/rooms/{code}/players`), for games that take
   * players that way: the name of the rules' proposal that does it, called with `{ playerId, name }`.
   */
  readonly joinProposal?: string;
  /** How a room of it opens over HTTP. */
  readonly opening?: GameOpening<S>;
  /**
   * A finished game's results, read by its link (`GET /api/results/{id}`, `.csv`) from the summary
   * it reported (`Outcome.finished`), for a game that reports results.
   */
  readonly results?: {
    json(summary: any): unknown;
    readonly csvHeader: readonly string[];
    csvRows(summary: any): string[][];
  };
  /** A finished game's line in the console, from the summary it reported; without it the line names no players. */
  finishedRecord?(summary: any): FinishedRecord;
  /** A seat's name in this state (a refused command's player, in the console), if it has one. */
  seatName?(state: S, seat: string): string | undefined;
  /**
   * The rules' state from a snapshot as loaded (what `rules.snapshotOf` kept, as JSON), with what
   * the room was opened with; the snapshot itself when absent.
   */
  fromSnapshot?(json: unknown, opened: { readonly deck?: readonly unknown[] }): S;
}
