// One refused command, and a page of them, as GET /admin/api/rooms/{code}/refusals gives them.
// The types are inferred from the server's schemas (packages/client/src/http/admin.ts).
export type { RefusalsPage, RefusedCommand } from '@game-rooms/client'

export const REFUSALS_PAGE_SIZE = 20

export function refusalsPath(code: string, cursor: string | null, limit = REFUSALS_PAGE_SIZE): string {
  const q = new URLSearchParams({ limit: String(limit) })
  if (cursor) q.set('cursor', cursor)
  return `/rooms/${encodeURIComponent(code)}/refusals?${q.toString()}`
}
