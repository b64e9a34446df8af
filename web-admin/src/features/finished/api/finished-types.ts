// The finished games as GET /admin/api/finished and /admin/api/finished/{id} give them.

// The types are inferred from the schemas the server documents them with (packages/client/src/http/admin.ts).
export type { FinishedGame, FinishedGameDetail, FinishedPage } from '@game-rooms/client'

/** What the list is searched by: a room code and a range of days (YYYY-MM-DD, UTC). Each is optional. */
export interface FinishedSearch {
  readonly code: string
  readonly from: string
  readonly to: string
}

export const NO_SEARCH: FinishedSearch = { code: '', from: '', to: '' }
