import { decimalField, jsonObject, printableField, readBody, uuidField, wholeField } from '@app/protocol';
import { REMATCH_SECONDS } from './trivia.legacy';
import { Settings } from './trivia.types';

/** What opening a trivia room takes (`POST /api/rooms`, PROTOCOL.md section 2): the host's name and the room's settings. */
export interface TriviaSettings extends Omit<Settings, 'deckId' | 'rematchSeconds' | 'expirySeconds'> {
  readonly hostName: string;
  /** None: the server's built-in deck. */
  readonly deckId?: string;
}

/**
 * The body of `POST /api/rooms`: the host's name and the room's settings with their defaults. The
 * server reads the body with it (a 400 names the first bad field) and the API document shows it.
 */
export const TRIVIA_SETTINGS = jsonObject({
  hostName: printableField(32),
  deckId: uuidField().optional().meta({ description: 'default: the built-in deck 00000000-0000-4000-8000-000000000001' }),
  questionCount: wholeField(1, 50).default(10),
  secondsPerQuestion: decimalField(0.2, 300).default(20).meta({ description: 'fractions are for tests and benches' }),
  revealSeconds: decimalField(0, 60).default(4),
  maxPlayers: wholeField(1, 100).default(20),
  minPlayers: wholeField(1, 100).default(2).meta({ description: 'the yes votes a rematch needs' }),
});

/** The body of `POST /api/rooms` as settings with their defaults, or a 400 naming the first bad field. */
export function triviaSettings(body: unknown): TriviaSettings {
  const { deckId, ...rest } = readBody(TRIVIA_SETTINGS, body);
  return { ...rest, ...(deckId ? { deckId } : {}) };
}

/** The settings a room plays by, once its deck is known. */
export function roomSettings(s: TriviaSettings, deckId: string, expirySeconds: number): Settings {
  const { hostName: _host, deckId: _deck, ...rest } = s;
  return { ...rest, deckId, rematchSeconds: REMATCH_SECONDS, expirySeconds };
}
