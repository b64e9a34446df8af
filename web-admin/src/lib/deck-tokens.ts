// A deck's edit token is the only right to change it (no accounts): the server shows it once,
// and this browser keeps it in localStorage, one entry per deck id, so the host can come back.
// The same tokens are what lists this browser's decks (GET /api/decks shows no one else's).

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

/** Every edit token this browser keeps, each once; an entry that is not a token (edited by hand) is left out. */
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
