// The finished games as GET /admin/api/finished and /admin/api/finished/{id} give them.

import type { GameResults } from '../../results/api/results-types'

export interface FinishedGame {
  readonly id: string
  /** The public results link's id (`/results/{id}`). */
  readonly resultsId: string
  readonly code: string
  readonly game: string
  /** Its number in its room: a rematch is the next. */
  readonly number: number
  readonly hostName: string | null
  readonly players: { readonly count: number; readonly names: readonly string[] }
  readonly winner: string | null
  /** Epoch ms. */
  readonly startedAt: number
  /** The game's own summary, or derived: the end of the room's previous game, or the room's opening. */
  readonly startedFrom: 'summary' | 'previous_game' | 'room_opened'
  readonly finishedAt: number
}

export interface FinishedPage {
  readonly games: readonly FinishedGame[]
  /** Pass back as `cursor` for the next (older) page; null on the last. */
  readonly next: string | null
}

export interface FinishedGameDetail extends FinishedGame {
  /** Until when the public link answers (epoch ms). */
  readonly publicUntil: number
  /** As GET /api/results/{id} gives them; null for a game that reports none. */
  readonly results: GameResults | null
}

/** What the list is searched by: a code and a range of days (YYYY-MM-DD, UTC), each optional. */
export interface FinishedSearch {
  readonly code: string
  readonly from: string
  readonly to: string
}

export const NO_SEARCH: FinishedSearch = { code: '', from: '', to: '' }
