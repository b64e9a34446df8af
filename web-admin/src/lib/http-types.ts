// Types of HTTP bodies whose schemas live in a game's folder (a game's opening settings), for the
// pages that send them; the protocol's own shapes come from @app/protocol.

import type { z } from 'zod'
import type { TRIVIA_SETTINGS } from '../../../libs/games/trivia/src/trivia.settings-schema'

/** `POST /api/rooms` of a trivia room, as the server's schema reads it (defaults make fields optional). */
export type TriviaSettingsBody = z.input<typeof TRIVIA_SETTINGS>
