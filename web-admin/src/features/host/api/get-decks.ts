import type { DeckList, DeckSummary } from '@app/protocol'
import { gameRequest } from '../../../lib/game-api'

export type { DeckSummary }

/** GET /api/decks: the built-in deck and the ones hosts have added. */
export async function getDecks(): Promise<readonly DeckSummary[]> {
  return (await gameRequest<DeckList>('GET', '/api/decks')).decks
}
