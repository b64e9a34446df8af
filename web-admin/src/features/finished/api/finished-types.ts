// The finished games as GET /admin/api/finished and /admin/api/finished/{id} give them.

// Inferred from the schemas the server documents them with (libs/protocol/src/http/admin.ts).
export type { FinishedGame, FinishedGameDetail, FinishedPage } from '@app/protocol'

/** What the list is searched by: a code and a range of days (YYYY-MM-DD, UTC), each optional. */
export interface FinishedSearch {
  readonly code: string
  readonly from: string
  readonly to: string
}

export const NO_SEARCH: FinishedSearch = { code: '', from: '', to: '' }
