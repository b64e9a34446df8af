import { GameApiError } from '../../../lib/game-api'

/**
 * GET /api/decks/{id}.csv with the edit token returns the saved deck in the import's format. The
 * server writes it, with the same columns and lists that its import reads back.
 */
export async function exportDeckCsv(id: string, editToken: string): Promise<string> {
  const res = await fetch(`/api/decks/${encodeURIComponent(id)}.csv`, { headers: { authorization: `Bearer ${editToken}` } })
  const text = await res.text()
  if (!res.ok) {
    let error: { code?: string; message?: string } = {}
    try {
      error = JSON.parse(text) as typeof error
    } catch {
      // The error body is not JSON, and the status says enough.
    }
    throw new GameApiError(res.status, error.code, error.message ?? `HTTP ${res.status}`, error)
  }
  return text
}
