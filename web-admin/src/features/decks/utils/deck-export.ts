import type { DeckBody, DeckDetails } from '../api/deck-types'

// A deck exported as JSON is the body that `POST /api/decks` takes. It is made from the deck as the
// server holds it, read with its edit token and so with its right answers. A picture goes by its
// image id, which only this server knows.

/** The deck as `POST /api/decks` takes it, laid out for a person to read. */
export function deckJson(deck: DeckDetails): string {
  const body: DeckBody = { name: deck.name, questions: deck.questions as DeckBody['questions'] }
  return `${JSON.stringify(body, null, 2)}\n`
}

/** Makes a file name from a deck's name, of letters, digits and dashes, and never empty. */
export function exportFileName(deckName: string, extension: 'csv' | 'json'): string {
  const base = deckName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${base || 'deck'}.${extension}`
}
