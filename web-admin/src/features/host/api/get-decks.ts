import { DECK_PAGE_MAX, DECK_TOKENS_MAX, type DeckList, type DeckSummary } from '@game-rooms/client'
import { gameRequest } from '../../../lib/game-api'

export type { DeckSummary }

/** More pages than this for one set of tokens would mean the server repeats itself, so the listing stops there. */
const MAX_PAGES = 20

/**
 * Reads every page of GET /api/decks: the built-in decks, and the decks whose edit tokens this
 * browser presents (nobody lists another host's decks). The tokens go `DECK_TOKENS_MAX` at a time,
 * as the server takes them.
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
  // The built-in decks come first, in the server's order. Each batch's own decks follow in their order.
  return [...decks.values()].sort((a, b) => Number(b.builtin) - Number(a.builtin))
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
