import { RESULTS } from '../results/results-fixture'
import type { FinishedGame, FinishedGameDetail } from './api/finished-types'

/** A finished game's line as GET /admin/api/finished sends it. */
export function finishedGameFixture(patch: Partial<FinishedGame> = {}): FinishedGame {
  return {
    id: '7f1c2a44-0000-4000-8000-000000000001',
    resultsId: '7f1c2a44-0000-4000-8000-000000000001',
    code: 'K7QMPD',
    game: 'trivia',
    number: 1,
    hostName: 'Hugo',
    players: { count: 3, names: ['Ann', 'Cy', 'Bob'] },
    winner: 'Ann',
    startedAt: Date.UTC(2026, 2, 14, 9, 26),
    startedFrom: 'summary',
    finishedAt: Date.UTC(2026, 2, 14, 9, 30, 5),
    ...patch,
  }
}

/** The same game's detail, with the results page's fixture as its results. */
export function finishedDetailFixture(patch: Partial<FinishedGameDetail> = {}): FinishedGameDetail {
  const line = finishedGameFixture({ number: 2 })
  return { ...line, publicUntil: line.finishedAt + 30 * 86_400_000, results: RESULTS, ...patch }
}
