import { cardsRules } from '@app/games/cards';
import { triviaRules } from '@app/games/trivia';
import { LabelVocabulary } from '@app/observability';
import { PING } from '@app/protocol';

/** The games this server plays: each is its rules, on the same engine. */
export const GAMES = [triviaRules, cardsRules] as const;

/** What the metrics' labels may say: every game's command and event types, and nothing a client wrote. */
export function labelVocabulary(games: readonly { commandTypes: readonly string[]; eventTypes: readonly string[] }[]): LabelVocabulary {
  return {
    commands: new Set([PING, ...games.flatMap((g) => g.commandTypes)]),
    events: new Set(games.flatMap((g) => g.eventTypes)),
  };
}
