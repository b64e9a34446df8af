import { cards } from '@app/games/cards';
import { trivia } from '@app/games/trivia';
import { LabelVocabulary } from '@app/observability';
import type { ZodType } from 'zod';
import { codeTable, CodeTable, OpenedHostRoom, OpenedTable, PING, ROOM_EVENT_TYPES } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';
import { GameModule } from '@app/room-engine';
import * as testGames from './test-games';

/** The games that live only in tests: served by a server started for tests alone (read before the config is, so from the environment). */
export const TEST_GAMES: readonly GameModule[] = Object.values(testGames as Record<string, GameModule>);
const SERVES_TEST_GAMES = process.env.ALLOW_TEST_GAMES === '1';

/** The games this server plays, one line each: everything else reads this list. */
export const GAMES: readonly GameModule[] = [trivia, cards, ...(SERVES_TEST_GAMES ? TEST_GAMES : [])];

/** The registered game of this kind; throws for a kind no game has (a bug, not a client's input). */
export function gameOf(kind: string, games: readonly GameModule[] = GAMES): GameModule {
  const game = games.find((g) => g.kind === kind);
  if (!game) throw new Error(`no game of kind '${kind}' is registered`);
  return game;
}

/** What the metrics' labels may say: every game's command and event types, the events every room sends, and nothing a client wrote. */
export function labelVocabulary(games: readonly GameModule[]): LabelVocabulary {
  return {
    commands: new Set([PING, ...games.flatMap((g) => g.rules.commandTypes)]),
    events: new Set([...ROOM_EVENT_TYPES, ...games.flatMap((g) => g.rules.eventTypes)]),
  };
}

/**
 * The compact-v2 and v3 table this server speaks: each registered game's section, in registry order, at
 * the version its clients know (`@app/wire-codes`, which the pages and the bot kit decode with).
 * Codes are positions, so a game registered after those sections only adds one at the end.
 */
export function serverCodes(games: readonly GameModule[] = GAMES): CodeTable {
  return codeTable(WIRE_CODES.version, games.map((g) => g.codes), WIRE_CODES.maxIds);
}

/** A room just opened, as every route that opens one has it. */
export interface OpenedGameRoom {
  readonly roomId: string;
  readonly code: string;
  /** The opener's seat token. */
  readonly token: string;
}

/**
 * An older way to reach one game's rooms over HTTP, kept for the clients that game had before the
 * generic routes: the same routes as `/api/rooms` for that game alone, with its own words where
 * they differ.
 */
export interface GameRoutes {
  readonly game: GameModule;
  /** What the game calls a room, for the API document (`table`). */
  readonly noun: string;
  /** What opening a room answers there, and that answer's shape for the API document. */
  opened(room: OpenedGameRoom): Record<string, unknown>;
  readonly openedShape: ZodType;
}

/**
 * `POST /api/rooms` without `game`, and `GET /api/leaderboard` without `?game=`: trivia, as it was
 * before other games, answered as trivia's clients know it (the host's token as `hostToken`).
 */
export const DEFAULT_GAME: GameRoutes = {
  game: trivia,
  noun: 'room',
  opened: ({ roomId, code, token }) => ({ roomId, code, hostToken: token }),
  openedShape: OpenedHostRoom,
};

/**
 * Aliases of the generic routes for one game, by path: `/api/<path>`, `/api/<path>/{code}` and
 * `/api/<path>/{code}/spectators` answer as `/api/rooms` does for a room of that game, and 404
 * for a room of another. `/api/tables` is the card tables' (PROTOCOL.md section 8).
 */
export const ROOM_ALIASES: Readonly<Record<string, GameRoutes>> = {
  tables: { game: cards, noun: 'table', opened: ({ roomId, code, token }) => ({ tableId: roomId, code, playerToken: token }), openedShape: OpenedTable },
};

/**
 * The command an operator's kick (`POST /admin/api/rooms/{code}/kick`) sends a room, taken with
 * `{ playerId }`, for each game that lets a player be kicked: the same command as the host's.
 */
export const KICK_COMMANDS: Readonly<Record<string, string>> = {
  [trivia.kind]: 'room.kick',
};
