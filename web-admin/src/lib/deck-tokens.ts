// A deck's edit token is the only right to change the deck, since there are no accounts. The
// server shows the token once, and this browser keeps it in localStorage, one entry per deck id,
// so that the host can come back. The same tokens list this browser's decks, because GET
// /api/decks shows no one else's.

import { EDIT_TOKEN_PATTERN } from '@game-rooms/client'

const PREFIX = 'trivia:deck-token:'
const key = (deckId: string) => `${PREFIX}${deckId.toLowerCase()}`

export function deckToken(deckId: string): string | undefined {
  return window.localStorage.getItem(key(deckId)) ?? undefined
}

export function keepDeckToken(deckId: string, token: string): void {
  window.localStorage.setItem(key(deckId), token)
}

export function forgetDeckToken(deckId: string): void {
  window.localStorage.removeItem(key(deckId))
}

/** Every edit token this browser keeps, each once. An entry that is not a token (one edited by hand) is left out. */
export function allDeckTokens(): string[] {
  const tokens = new Set<string>()
  const storage = window.localStorage
  for (let i = 0; i < storage.length; i++) {
    const name = storage.key(i)
    const token = name?.startsWith(PREFIX) ? storage.getItem(name) : null
    if (token && EDIT_TOKEN_PATTERN.test(token)) tokens.add(token)
  }
  return [...tokens]
}
