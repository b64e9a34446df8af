// These are the types of HTTP bodies whose schemas live in a game's folder (a game's opening
// settings), for the pages that send them. The protocol's own shapes come from @app/protocol.

import type { z } from 'zod'
import type { TRIVIA_SETTINGS } from '../../../libs/games/trivia/src/trivia.settings-schema'

/** The body of `POST /api/rooms` for a trivia room, as the server's schema reads it. Fields with defaults are optional. */
export type TriviaSettingsBody = z.input<typeof TRIVIA_SETTINGS>
