import { z } from 'zod';
import { decimalField, jsonObject, printableField, uuidField, wholeField } from '@game-rooms/client';

// This schema lives apart from the reader, so that a browser page can take its type. Only the
// protocol's browser-safe fields are used here.

/**
 * The body of `POST /api/rooms`: the host's name and the room's settings with their defaults. The
 * server reads the body with this schema (a 400 names the first bad field), and the API document
 * shows it.
 */
export const TRIVIA_SETTINGS = jsonObject({
  hostName: printableField(32),
  deckId: uuidField().optional().meta({ description: 'default: the built-in deck 00000000-0000-4000-8000-000000000001' }),
  questionCount: wholeField(1, 50).default(10),
  secondsPerQuestion: decimalField(0.2, 300).default(20).meta({ description: 'fractions are for tests and benches' }),
  revealSeconds: decimalField(0, 60).default(4),
  maxPlayers: wholeField(1, 100).default(20),
  minPlayers: wholeField(1, 100).default(2).meta({ description: 'the yes votes a rematch needs' }),
  pace: z
    .enum(['clock', 'host'], { error: 'must be "clock" or "host"' })
    .default('clock')
    .meta({ description: 'host: after each reveal the game waits for the host’s room.next' }),
  order: z
    .enum(['shuffled', 'deck'], { error: 'must be "shuffled" or "deck"' })
    .default('shuffled')
    .meta({ description: 'deck: the questions in the deck’s order' }),
  lateJoin: z.boolean({ error: 'must be true or false' }).default(true).meta({ description: 'false: nobody joins while a game runs' }),
});
