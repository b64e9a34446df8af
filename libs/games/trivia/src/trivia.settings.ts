import { decimal, optionalUuid, printable, wholeNumber } from '@app/protocol';
import { REMATCH_SECONDS } from './trivia.legacy';
import { Settings } from './trivia.types';

/** What opening a trivia room takes (`POST /api/rooms`, PROTOCOL.md section 2): the host's name and the room's settings. */
export interface TriviaSettings extends Omit<Settings, 'deckId' | 'rematchSeconds' | 'expirySeconds'> {
  readonly hostName: string;
  /** None: the server's built-in deck. */
  readonly deckId?: string;
}

/** The body of `POST /api/rooms` as settings with their defaults, or a 400 naming the first bad field. */
export function triviaSettings(body: Readonly<Record<string, unknown>>): TriviaSettings {
  const deckId = optionalUuid(body.deckId, 'deckId');
  return {
    hostName: printable(body.hostName, 'hostName', 32),
    ...(deckId ? { deckId } : {}),
    questionCount: wholeNumber(body.questionCount, 'questionCount', 1, 50, 10),
    secondsPerQuestion: decimal(body.secondsPerQuestion, 'secondsPerQuestion', 0.2, 300, 20),
    revealSeconds: decimal(body.revealSeconds, 'revealSeconds', 0, 60, 4),
    maxPlayers: wholeNumber(body.maxPlayers, 'maxPlayers', 1, 100, 20),
    minPlayers: wholeNumber(body.minPlayers, 'minPlayers', 1, 100, 2),
  };
}

/** The settings a room plays by, once its deck is known. */
export function roomSettings(s: TriviaSettings, deckId: string, expirySeconds: number): Settings {
  const { hostName: _host, deckId: _deck, ...rest } = s;
  return { ...rest, deckId, rematchSeconds: REMATCH_SECONDS, expirySeconds };
}

/** The body of `POST /api/rooms`, for the API document. */
export const TRIVIA_SETTINGS_SCHEMA = {
  type: 'object',
  required: ['hostName'],
  properties: {
    hostName: { type: 'string', minLength: 1, maxLength: 32 },
    deckId: { type: 'string', format: 'uuid', description: 'default: the built-in deck 00000000-0000-4000-8000-000000000001' },
    questionCount: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    secondsPerQuestion: { type: 'number', minimum: 0.2, maximum: 300, default: 20, description: 'fractions are for tests and benches' },
    revealSeconds: { type: 'number', minimum: 0, maximum: 60, default: 4 },
    maxPlayers: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    minPlayers: { type: 'integer', minimum: 1, maximum: 100, default: 2, description: 'the yes votes a rematch needs' },
  },
} as const;
