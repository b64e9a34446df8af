import { gameRequest } from '../../../lib/game-api'
import type { CreatedDeck } from './deck-types'

/** POST /api/decks/import makes a new deck from a spreadsheet's CSV. The server refuses a bad file with `bad_csv` and its line and column. */
export function importDeck(name: string, csv: string): Promise<CreatedDeck> {
  return gameRequest<CreatedDeck>('POST', `/api/decks/import?name=${encodeURIComponent(name)}`, { raw: csv, type: 'text/csv' })
}
