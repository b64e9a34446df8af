import { gameRequest } from '../../../lib/game-api'
import type { DeckDetails } from './deck-types'

/** GET /api/decks/{id} reads a deck. With the edit token, the deck includes the right answers. */
export function getDeck(id: string, editToken?: string): Promise<DeckDetails> {
  return gameRequest<DeckDetails>('GET', `/api/decks/${encodeURIComponent(id)}`, undefined, editToken)
}
