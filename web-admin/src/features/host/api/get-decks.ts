import { gameRequest } from '../../../lib/game-api'

export interface DeckSummary {
  readonly id: string
  readonly name: string
  readonly builtin: boolean
  readonly questions: number
}

/** GET /api/decks: the built-in deck and the ones hosts have added. */
export async function getDecks(): Promise<readonly DeckSummary[]> {
  return (await gameRequest<{ decks: DeckSummary[] }>('GET', '/api/decks')).decks
}
