import type { z } from 'zod';
import { readBody } from '@app/protocol';
import { TRIVIA_SETTINGS } from './trivia.settings-schema';
import { Settings } from './trivia.types';

export { TRIVIA_SETTINGS };

/** How long the players of a finished game have to vote for a rematch. */
export const REMATCH_SECONDS = 30;

/**
 * What it takes to open a trivia room (`POST /api/rooms`, PROTOCOL.md section 2): the host's name and
 * the room's settings.
 */
export interface TriviaSettings extends Omit<Settings, 'deckId' | 'rematchSeconds' | 'expirySeconds'> {
  readonly hostName: string;
  /** When no deck is given, the room plays the server's built-in deck. */
  readonly deckId?: string;
}

/** Reads the body of `POST /api/rooms` as settings with their defaults. A bad body gets a 400 naming the first bad field. */
export function triviaSettings(body: unknown): TriviaSettings {
  return settingsOf(readBody(TRIVIA_SETTINGS, body));
}

/** Turns the body, as its schema read it, into settings. An empty deck id counts as no deck id at all. */
export function settingsOf({ deckId, ...rest }: z.output<typeof TRIVIA_SETTINGS>): TriviaSettings {
  return { ...rest, ...(deckId ? { deckId } : {}) };
}

/** Returns the settings a room plays by, once its deck is known. */
export function roomSettings(s: TriviaSettings, deckId: string, expirySeconds: number): Settings {
  const { hostName: _host, deckId: _deck, ...rest } = s;
  return { ...rest, deckId, rematchSeconds: REMATCH_SECONDS, expirySeconds };
}
