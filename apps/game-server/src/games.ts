import { cards } from '@app/games/cards';
import { trivia } from '@app/games/trivia';
import { OpenedHostRoom, OpenedTable } from '@app/protocol';
import { GameModule } from '@app/room-engine';
import { GameRoomsGames, GameRoutes } from '@app/server';
import * as testGames from './test-games';

/**
 * The games that live only in tests. Only a server started for tests serves them. The switch is read
 * from the environment, because the registry is read before the config is.
 */
export const TEST_GAMES: readonly GameModule[] = Object.values(testGames as Record<string, GameModule>);
const SERVES_TEST_GAMES = process.env.ALLOW_TEST_GAMES === '1';

/** The games this server plays, one line each. Everything else reads this list. */
export const GAMES: readonly GameModule[] = [trivia, cards, ...(SERVES_TEST_GAMES ? TEST_GAMES : [])];

/**
 * The game that `POST /api/rooms` without `game`, and `GET /api/leaderboard` without `?game=`, mean.
 * It is trivia, as it was before there were other games, and the answer has the shape trivia's
 * clients know (the host's token as `hostToken`).
 */
export const DEFAULT_GAME: GameRoutes = {
  game: trivia,
  noun: 'room',
  opened: ({ roomId, code, token }) => ({ roomId, code, hostToken: token }),
  openedShape: OpenedHostRoom,
};

/**
 * Aliases of the generic routes for one game, by path. `/api/<path>`, `/api/<path>/{code}` and
 * `/api/<path>/{code}/spectators` answer as `/api/rooms` does for a room of that game, and answer
 * 404 for a room of another game. `/api/tables` is the card tables' alias (PROTOCOL.md section 8).
 */
export const ROOM_ALIASES: Readonly<Record<string, GameRoutes>> = {
  tables: {
    game: cards,
    noun: 'table',
    opened: ({ roomId, code, token }) => ({ tableId: roomId, code, playerToken: token }),
    openedShape: OpenedTable,
  },
};

/**
 * For each game that lets a player be kicked, the command that an operator's kick
 * (`POST /admin/api/rooms/{code}/kick`) sends the room, with `{ playerId }` as its data. It is the
 * same command the host sends.
 */
export const KICK_COMMANDS: Readonly<Record<string, string>> = {
  [trivia.kind]: 'room.kick',
};

/** What this deployment gives `GameRoomsModule.forRoot`: its games, and the older routes they keep. */
export const DEPLOYED_GAMES: GameRoomsGames = {
  games: GAMES,
  defaultGame: DEFAULT_GAME,
  aliases: ROOM_ALIASES,
  kickCommands: KICK_COMMANDS,
};
