import { z } from 'zod';

/** The answer of `GET /api/rooms/{code}` for a trivia room, for the API document. */
export const TRIVIA_SUMMARY = z
  .object({
    game: z.literal('trivia'),
    code: z.string(),
    phase: z.enum(['lobby', 'question', 'reveal', 'finished', 'closed']),
    host: z.object({ name: z.string() }),
    players: z.array(z.object({ id: z.guid(), name: z.string(), connected: z.boolean(), score: z.int() })),
    settings: z.object({
      deckId: z.guid(),
      questionCount: z.int(),
      secondsPerQuestion: z.number(),
      revealSeconds: z.number(),
      maxPlayers: z.int(),
      minPlayers: z.int(),
      pace: z.literal('host').optional().meta({ description: 'absent: clock' }),
      order: z.literal('deck').optional().meta({ description: 'absent: shuffled' }),
      lateJoin: z.literal(false).optional().meta({ description: 'absent: late players are seated' }),
    }),
    question: z.object({ index: z.int(), total: z.int() }).optional().meta({ description: 'during a game' }),
  })
  .meta({ description: 'a trivia room: phase, players and scores, settings; never a question' });
