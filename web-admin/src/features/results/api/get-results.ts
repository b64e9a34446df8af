import { gameRequest } from '../../../lib/game-api'
import type { GameResults } from './results-types'

/**
 * GET /api/results/{id} reads a finished game's results. It answers 404 `results_not_found` once
 * they are gone (past the results window, `RESULTS_KEPT_DAYS`) or when they never existed.
 */
export function getResults(id: string): Promise<GameResults> {
  return gameRequest<GameResults>('GET', resultsPath(id))
}

/** The results as JSON, for scripts. */
export function resultsPath(id: string): string {
  return `/api/results/${encodeURIComponent(id)}`
}

/** The results as CSV, one row per player per question. */
export function resultsCsvPath(id: string): string {
  return `${resultsPath(id)}.csv`
}

/** The results page of a finished game. Anyone with the link can read it. */
export function resultsPagePath(id: string): string {
  return `/results/${encodeURIComponent(id)}`
}
