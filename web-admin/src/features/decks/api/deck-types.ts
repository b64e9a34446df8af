// The deck API's shapes (docs/protocol.md section 12), as the editor sends and reads them.

export interface DeckQuestion {
  readonly text: string
  readonly choices: readonly string[]
  /** 0-based over the API; the CSV counts from 1. */
  readonly correct: number
}

export interface DeckBody {
  readonly name: string
  readonly questions: readonly DeckQuestion[]
}

export interface SavedDeck {
  readonly id: string
  readonly name: string
  readonly builtin: boolean
  readonly questions: number
}

/** A new deck's answer: the edit token is shown this once. */
export interface CreatedDeck extends SavedDeck {
  readonly editToken: string
}

export interface DeckDetails {
  readonly id: string
  readonly name: string
  readonly builtin: boolean
  readonly editable: boolean
  /** `correct` is there only when the request carried the edit token. */
  readonly questions: readonly (Omit<DeckQuestion, 'correct'> & { readonly correct?: number })[]
}
