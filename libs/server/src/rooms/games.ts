import { LabelVocabulary } from '@app/observability';
import type { ZodType } from 'zod';
import { codeTable, CodeTable, PING, ROOM_EVENT_TYPES } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';
import { GameModule } from '@app/room-engine';

/** Returns the registered game of this kind. It throws for a kind no game has, which is a bug, not a client's input. */
export function gameOf(kind: string, games: readonly GameModule[]): GameModule {
  const game = games.find((g) => g.kind === kind);
  if (!game) throw new Error(`no game of kind '${kind}' is registered`);
  return game;
}

/**
 * Lists what the metrics' labels may say: every game's command and event types and the events every
 * room sends. Nothing a client wrote can become a label.
 */
export function labelVocabulary(games: readonly GameModule[]): LabelVocabulary {
  return {
    commands: new Set([PING, ...games.flatMap((g) => g.rules.commandTypes)]),
    events: new Set([...ROOM_EVENT_TYPES, ...games.flatMap((g) => g.rules.eventTypes)]),
  };
}

/**
 * Builds the compact-v2 and v3 code table this server speaks. It holds each registered game's section,
 * in registry order, at the version its clients know (`@app/wire-codes`, which the pages and the bot
 * kit use to decode). Codes are positions, so a game registered after those sections only adds a
 * section at the end.
 */
export function serverCodes(games: readonly GameModule[]): CodeTable {
  return codeTable(
    WIRE_CODES.version,
    games.map((g) => g.codes),
    WIRE_CODES.maxIds,
  );
}

/** A room that was just opened, in the form every route that opens a room receives it. */
export interface OpenedGameRoom {
  readonly roomId: string;
  readonly code: string;
  /** The opener's seat token. */
  readonly token: string;
}

/**
 * An older way to reach one game's rooms over HTTP. It is kept for the clients that the game had
 * before the generic routes existed. It offers the same routes as `/api/rooms`, for that game alone,
 * and uses the game's own words where they differ.
 */
export interface GameRoutes {
  readonly game: GameModule;
  /** What the game calls a room (for example `table`), used in the API document. */
  readonly noun: string;
  /** Builds the answer to opening a room on these routes. `openedShape` is that answer's shape for the API document. */
  opened(room: OpenedGameRoom): Record<string, unknown>;
  readonly openedShape: ZodType;
}

/** What a server is given to play: its games, and how the older routes that some of them had should answer. */
export interface GameRoomsGames {
  /** The games this server plays, in registry order. Their compact codes follow this order. */
  readonly games: readonly GameModule[];
  /**
   * The game that `POST /api/rooms` without `game` and `GET /api/leaderboard` without `?game=` mean.
   * When it is unset, they mean the first game, answered as `/api/rooms` answers for any game.
   */
  readonly defaultGame?: GameRoutes;
  /** Aliases of the generic routes for one game, by path (`/api/<path>`). */
  readonly aliases?: Readonly<Record<string, GameRoutes>>;
  /**
   * For each game that lets a player be kicked, the command that an operator's kick
   * (`POST /admin/api/rooms/{code}/kick`) sends to a room, with `{ playerId }`. It is the same
   * command the host sends.
   */
  readonly kickCommands?: Readonly<Record<string, string>>;
}

/**
 * The games one server plays, in the form its routes, services and API document read them. It is
 * built from the module's `games` option.
 */
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
    // Check that the older routes and the kicks name games of this registry, and that each kick is a
    // command its game takes.
    for (const routes of [...(this.defaultGame ? [this.defaultGame] : []), ...Object.values(this.aliases)]) {
      if (this.gameOf(routes.game.kind) !== routes.game)
        throw new Error(`the routes of '${routes.game.kind}' name a game this server does not play`);
    }
    for (const [kind, type] of Object.entries(this.kickCommands)) {
      if (!this.gameOf(kind).rules.commandTypes.includes(type))
        throw new Error(`the kick of '${kind}' is '${type}', a command that game does not take`);
    }
  }

  /** Returns the registered game of this kind. It throws for a kind no game has, which is a bug, not a client's input. */
  gameOf(kind: string): GameModule {
    return gameOf(kind, this.games);
  }

  /** The game that a route without `game` means: the default game, or else the first one registered. */
  get defaultKind(): string {
    return this.defaultGame?.game.kind ?? this.games[0].kind;
  }
}
