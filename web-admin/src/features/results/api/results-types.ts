// One finished game's results as GET /api/results/{resultsId} reads them (docs/protocol.md section 12).

import type { Standing } from '../../../lib/trivia-events'

export interface AnswerResult {
  readonly playerId: string
  readonly name: string
  /** 0-based, as the API counts choices; null (or absent) when the player gave no answer. */
  readonly choice?: number | null
  readonly right: boolean
  readonly points: number
  /** How long the player took, from the question's opening; null with no answer. */
  readonly ms?: number | null
}

export interface QuestionResult {
  readonly index: number
  readonly text: string
  /** The choices' texts, when the server sends them; else the page names choices by letter. */
  readonly choices?: readonly string[]
  /** The right choice, 0-based. */
  readonly correct: number
  /** The share of the game's players who chose right, 0 to 1. */
  readonly rightRate: number | null
  readonly answers: readonly AnswerResult[]
}

export interface GameResults {
  readonly code: string
  /** The game's number in its room: a rematch is the next one. */
  readonly number: number
  /** Epoch milliseconds or an ISO 8601 string: `new Date` reads both. */
  readonly finishedAt: number | string
  readonly standings: readonly Standing[]
  readonly questions: readonly QuestionResult[]
}
