import { gameRequest } from '../../../lib/game-api'
import type { CreatedDeck, DeckBody } from './deck-types'

/** POST /api/decks: a new deck, and its edit token. */
export function createDeck(deck: DeckBody): Promise<CreatedDeck> {
  return gameRequest<CreatedDeck>('POST', '/api/decks', deck)
}
