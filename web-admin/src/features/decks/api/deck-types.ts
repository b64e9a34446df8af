// The deck API's shapes (docs/protocol.md section 12), as the editor sends and reads them:
// inferred from the schemas the server validates with (libs/protocol/src/http/decks.ts).

import type { DeckSummary } from '@app/protocol'

export type { CreatedDeck, DeckBody, DeckDetails, DeckQuestion } from '@app/protocol'

export type SavedDeck = DeckSummary
