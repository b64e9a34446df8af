import { gameRequest } from '../../../lib/game-api'
import type { CreatedDeck, DeckBody } from './deck-types'

/** POST /api/decks creates a new deck and returns it with its edit token. */
export function createDeck(deck: DeckBody): Promise<CreatedDeck> {
  return gameRequest<CreatedDeck>('POST', '/api/decks', deck)
}
