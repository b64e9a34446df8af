import { z } from 'zod';

/** The answer to `GET /api/tables/{code}` (and to `GET /api/rooms/{code}` for a table), for the API document. */
export const TABLE_SUMMARY = z
  .object({
    game: z.literal('cards'),
    code: z.string(),
    phase: z.enum(['between', 'playing', 'waiting', 'closed']),
    rules: z.object({ smallBlind: z.int(), bigBlind: z.int(), buyIn: z.int(), actionSeconds: z.number() }),
    handsPlayed: z.int(),
    seats: z.array(
      z.object({
        seat: z.int(),
        name: z.string(),
        human: z.boolean(),
        stack: z.int(),
        buyInTotal: z.int(),
        hands: z.int(),
        connected: z.boolean(),
      }),
    ),
  })
  .meta({ description: 'a card table: seats, stacks, hands played; never a card' });
