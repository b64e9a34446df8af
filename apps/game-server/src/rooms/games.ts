import { cards } from '@app/games/cards';
import { trivia } from '@app/games/trivia';
import { LabelVocabulary } from '@app/observability';
import { PING } from '@app/protocol';
import { GameModule } from '@app/room-engine';

/** The games this server plays, one line each: everything else reads this list. */
export const GAMES: readonly GameModule[] = [trivia, cards];

/** The registered game of this kind; throws for a kind no game has (a bug, not a client's input). */
export function gameOf(kind: string, games: readonly GameModule[] = GAMES): GameModule {
  const game = games.find((g) => g.kind === kind);
  if (!game) throw new Error(`no game of kind '${kind}' is registered`);
  return game;
}

/** What the metrics' labels may say: every game's command and event types, and nothing a client wrote. */
export function labelVocabulary(games: readonly GameModule[]): LabelVocabulary {
  return {
    commands: new Set([PING, ...games.flatMap((g) => g.rules.commandTypes)]),
    events: new Set(games.flatMap((g) => g.rules.eventTypes)),
  };
}
