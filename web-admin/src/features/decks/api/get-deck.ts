import { gameRequest } from '../../../lib/game-api'
import type { DeckDetails } from './deck-types'

/** GET /api/decks/{id}: with the edit token, the right answers too. */
export function getDeck(id: string, editToken?: string): Promise<DeckDetails> {
  return gameRequest<DeckDetails>('GET', `/api/decks/${encodeURIComponent(id)}`, undefined, editToken)
}
