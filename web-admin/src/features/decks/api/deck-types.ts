// The deck API's shapes (docs/protocol.md section 12), as the editor sends and reads them. They are
// inferred from the schemas the server validates with (packages/client/src/http/decks.ts).

import type { DeckSummary } from '@game-rooms/client'

export type { CreatedDeck, DeckBody, DeckDetails, DeckQuestion } from '@game-rooms/client'

export type SavedDeck = DeckSummary
