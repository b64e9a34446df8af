import { gameRequest } from '../../../lib/game-api'

export interface NewRoom {
  readonly hostName: string
  readonly deckId?: string
  readonly questionCount: number
  readonly secondsPerQuestion: number
  readonly revealSeconds: number
}

export interface CreatedRoom {
  readonly roomId: string
  readonly code: string
  readonly hostToken: string
}

/** POST /api/rooms: a room in its lobby, and the host's token for it. */
export function createRoom(room: NewRoom): Promise<CreatedRoom> {
  return gameRequest<CreatedRoom>('POST', '/api/rooms', room)
}
