// One finished game's results as GET /api/results/{resultsId} reads them (docs/protocol.md section
// 12). The types are inferred from the server's schema (packages/client/src/http/results.ts).

import type { z } from 'zod'
import type {
  AnswerResult as AnswerResultSchema,
  GameResults as GameResultsSchema,
  QuestionResult as QuestionResultSchema,
} from '@game-rooms/client'

export type AnswerResult = z.infer<typeof AnswerResultSchema>
export type QuestionResult = z.infer<typeof QuestionResultSchema>
export type GameResults = z.infer<typeof GameResultsSchema>
