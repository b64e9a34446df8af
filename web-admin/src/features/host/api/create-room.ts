import type { z } from 'zod'
import type { OpenedHostRoom } from '@game-rooms/client'
import type { TriviaSettingsBody } from '../../../lib/http-types'
import { gameRequest } from '../../../lib/game-api'

/** What the host page sends: trivia's settings, as the server's schema reads them. */
export type NewRoom = TriviaSettingsBody

export type CreatedRoom = z.infer<typeof OpenedHostRoom>

/** POST /api/rooms opens a room in its lobby and returns the host's token for it. */
export function createRoom(room: NewRoom): Promise<CreatedRoom> {
  return gameRequest<CreatedRoom>('POST', '/api/rooms', room)
}
