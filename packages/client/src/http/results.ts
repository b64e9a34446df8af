import { z } from 'zod';
import { QUESTION_KINDS } from './decks.js';
import { wholeNumberQuery } from './fields.js';

// Finished games over HTTP: the leaderboard and a game's results link (docs/protocol.md section 12).

export const LEADERBOARD_MAX = 100;

/** `GET /api/leaderboard?limit=&game=`. The server checks `game` against the registry. */
export const LeaderboardQuery = z.object({
  limit: wholeNumberQuery(1, LEADERBOARD_MAX).optional().default(10),
  game: z.string().optional().meta({ description: 'a game of this server; the first registered game by default' }),
});

export const LeaderboardEntry = z.object({
  playerId: z.guid(),
  name: z.string(),
  games: z.int(),
  wins: z.int(),
  totalScore: z.int(),
  bestScore: z.int(),
});
export const Leaderboard = z.object({ players: z.array(LeaderboardEntry) });
export type Leaderboard = z.infer<typeof Leaderboard>;

export const ResultsParams = z.object({
  id: z.string().meta({ description: 'the `resultsId` of `game.finished`, optionally followed by `.csv`' }),
});

export const AnswerResult = z.object({
  playerId: z.string(),
  name: z.string(),
  choice: z.int().nullable().optional().meta({ description: '0-based; null when the player gave no answer' }),
  choices: z.array(z.int()).optional().meta({ description: 'a multi question’s answer: the choices picked, 0-based' }),
  text: z.string().optional().meta({ description: 'a text question’s answer, as the player typed it' }),
  right: z.boolean(),
  points: z.int(),
  ms: z.number().nullable().optional().meta({ description: "from the question's opening; null with no answer" }),
});
export const QuestionResult = z.object({
  index: z.int(),
  text: z.string(),
  kind: z.enum(QUESTION_KINDS).optional().meta({ description: 'absent in results from before kinds: choice' }),
  choices: z.array(z.string()).optional().meta({ description: 'absent for a text question' }),
  correct: z
    .union([z.int(), z.array(z.int()), z.array(z.string()), z.null()])
    .meta({ description: 'the right choice (0-based), the right choices (multi), the accepted answers (text), or null (poll)' }),
  rightRate: z
    .number()
    .nullable()
    .meta({ description: 'the share of the players who could answer it who answered right, 0 to 1; null for a poll' }),
  answers: z.array(AnswerResult),
});
export const Standing = z.object({
  playerId: z.string(),
  name: z.string(),
  score: z.int(),
  correct: z.int(),
  rank: z.int(),
  from: z.int().optional().meta({ description: 'the first question (its index) the player could answer: 0 but for a late arrival' }),
});

/** `GET /api/results/{id}` of a game played from a deck of questions. */
export const GameResults = z.object({
  code: z.string(),
  number: z.int(),
  finishedAt: z.union([z.number(), z.string()]).meta({ description: 'epoch ms' }),
  standings: z.array(Standing),
  questions: z.array(QuestionResult),
  readableUntil: z.number().meta({
    description:
      'epoch ms: when this link stops answering (the results window, `RESULTS_KEPT_DAYS`, 30 days by default, from `finishedAt`)',
  }),
});
export type GameResults = z.infer<typeof GameResults>;

/** `GET /api/results/{id}.csv`: one row per player per question. */
export const ResultsCsv = z.string().meta({
  description:
    '`game,question,text,player,choice,right,points,ms`; `choice` is the answer in words (a multi answer’s choices joined by " | ", a typed answer as typed); `right` is empty for a poll',
});
