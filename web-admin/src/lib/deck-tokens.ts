// A deck's edit token is the only right to change it (no accounts): the server shows it once,
// and this browser keeps it in localStorage, one entry per deck id, so the host can come back.

const key = (deckId: string) => `trivia:deck-token:${deckId.toLowerCase()}`

export function deckToken(deckId: string): string | undefined {
  return window.localStorage.getItem(key(deckId)) ?? undefined
}

export function keepDeckToken(deckId: string, token: string): void {
  window.localStorage.setItem(key(deckId), token)
}

export function forgetDeckToken(deckId: string): void {
  window.localStorage.removeItem(key(deckId))
}
