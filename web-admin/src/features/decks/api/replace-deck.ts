import { gameRequest } from '../../../lib/game-api'
import type { DeckBody, SavedDeck } from './deck-types'

/** PUT /api/decks/{id} with the edit token replaces the whole deck. */
export function replaceDeck(id: string, editToken: string, deck: DeckBody): Promise<SavedDeck> {
  return gameRequest<SavedDeck>('PUT', `/api/decks/${encodeURIComponent(id)}`, deck, editToken)
}
