/** One refused command as GET /admin/api/rooms/{code}/refusals gives it. */
export interface RefusedCommand {
  /** Its arrival, epoch ms. */
  readonly at: number
  /** player, host, spectator, or operator (the admin API). */
  readonly by: string
  readonly playerId: string | null
  readonly name: string | null
  /** As the client sent it; empty for a frame that was not one. */
  readonly type: string
  readonly code: string
  readonly status: number
  readonly message: string
}

export interface RefusalsPage {
  readonly code: string
  readonly roomId: string
  readonly live: boolean
  /** How long refusals are kept (REFUSALS_KEPT_DAYS). */
  readonly keptDays: number
  readonly refusals: readonly RefusedCommand[]
  readonly next: string | null
}

export const REFUSALS_PAGE_SIZE = 20

export function refusalsPath(code: string, cursor: string | null, limit = REFUSALS_PAGE_SIZE): string {
  const q = new URLSearchParams({ limit: String(limit) })
  if (cursor) q.set('cursor', cursor)
  return `/rooms/${encodeURIComponent(code)}/refusals?${q.toString()}`
}
