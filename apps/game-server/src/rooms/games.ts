import { cards } from '@app/games/cards';
import { trivia } from '@app/games/trivia';
import { LabelVocabulary } from '@app/observability';
import { codeTable, CodeTable, PING, ROOM_EVENT_TYPES } from '@app/protocol';
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
