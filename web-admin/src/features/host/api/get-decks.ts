import { DECK_PAGE_MAX, DECK_TOKENS_MAX, type DeckList, type DeckSummary } from '@game-rooms/client'
import { gameRequest } from '../../../lib/game-api'

export type { DeckSummary }

/** More pages than this for one set of tokens would be a server that repeats itself: stop there. */
const MAX_PAGES = 20

/**
 * GET /api/decks: the built-in decks and those whose edit tokens this browser presents (nobody
 * lists another host's), every page. Tokens go `DECK_TOKENS_MAX` at a time, as the server takes them.
 */
export async function getDecks(tokens: readonly string[]): Promise<readonly DeckSummary[]> {
  const decks = new Map<string, DeckSummary>()
  const batches = tokens.length === 0 ? [[]] : chunks(tokens, DECK_TOKENS_MAX)
  for (const batch of batches) {
    let cursor: string | null = null
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `?limit=${DECK_PAGE_MAX}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const list: DeckList = await gameRequest<DeckList>(
        'GET',
        `/api/decks${query}`,
        undefined,
        batch.length ? batch.join(', ') : undefined,
      )
      for (const deck of list.decks) decks.set(deck.id, deck)
      cursor = list.next
      if (!cursor) break
    }
  }
  // The built-in decks first, as the server lists them; each batch's own in its order after.
  return [...decks.values()].sort((a, b) => Number(b.builtin) - Number(a.builtin))
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
