import { gameRequest } from '../../../lib/game-api'

/** DELETE /api/decks/{id} with the edit token. */
export function deleteDeck(id: string, editToken: string): Promise<void> {
  return gameRequest<void>('DELETE', `/api/decks/${encodeURIComponent(id)}`, undefined, editToken)
}
