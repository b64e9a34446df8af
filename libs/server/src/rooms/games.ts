import { LabelVocabulary } from '@app/observability';
import type { ZodType } from 'zod';
import { codeTable, CodeTable, PING, ROOM_EVENT_TYPES } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';
import { GameModule } from '@app/room-engine';

/** The registered game of this kind; throws for a kind no game has (a bug, not a client's input). */
export function gameOf(kind: string, games: readonly GameModule[]): GameModule {
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
export function serverCodes(games: readonly GameModule[]): CodeTable {
  return codeTable(
    WIRE_CODES.version,
    games.map((g) => g.codes),
    WIRE_CODES.maxIds,
  );
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

/** What a server is given to play: its games, and how the older routes some of them had answer. */
export interface GameRoomsGames {
  /** The games this server plays, in registry order (their compact codes follow it). */
  readonly games: readonly GameModule[];
  /** `POST /api/rooms` without `game`, and `GET /api/leaderboard` without `?game=`; the first game, answered as `/api/rooms` answers any, when unset. */
  readonly defaultGame?: GameRoutes;
  /** Aliases of the generic routes for one game, by path (`/api/<path>`). */
  readonly aliases?: Readonly<Record<string, GameRoutes>>;
  /**
   * The command an operator's kick (`POST /admin/api/rooms/{code}/kick`) sends a room, taken with
   * `{ playerId }`, for each game that lets a player be kicked: the same command as the host's.
   */
  readonly kickCommands?: Readonly<Record<string, string>>;
}

/** The games one server plays, as its routes, services and API document read them (the module's `games` option). */
export class GameRegistry {
  readonly games: readonly GameModule[];
  readonly defaultGame?: GameRoutes;
  readonly aliases: Readonly<Record<string, GameRoutes>>;
  readonly kickCommands: Readonly<Record<string, string>>;

  constructor(given: GameRoomsGames) {
    if (given.games.length === 0) throw new Error('a game-rooms server needs at least one game');
    const kinds = given.games.map((g) => g.kind);
    const twice = kinds.find((kind, i) => kinds.indexOf(kind) !== i);
    if (twice) throw new Error(`the game '${twice}' is registered twice`);
    this.games = given.games;
    this.defaultGame = given.defaultGame;
    this.aliases = given.aliases ?? {};
    this.kickCommands = given.kickCommands ?? {};
    // The older routes and the kicks name games of this registry, and a kick is a command its game takes.
    for (const routes of [...(this.defaultGame ? [this.defaultGame] : []), ...Object.values(this.aliases)]) {
      if (this.gameOf(routes.game.kind) !== routes.game)
        throw new Error(`the routes of '${routes.game.kind}' name a game this server does not play`);
    }
    for (const [kind, type] of Object.entries(this.kickCommands)) {
      if (!this.gameOf(kind).rules.commandTypes.includes(type))
        throw new Error(`the kick of '${kind}' is '${type}', a command that game does not take`);
    }
  }

  /** The registered game of this kind; throws for a kind no game has (a bug, not a client's input). */
  gameOf(kind: string): GameModule {
    return gameOf(kind, this.games);
  }

  /** The game a route without `game` means: the default game's, or the first registered. */
  get defaultKind(): string {
    return this.defaultGame?.game.kind ?? this.games[0].kind;
  }
}
