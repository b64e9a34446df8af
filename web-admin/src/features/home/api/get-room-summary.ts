import { gameRequest } from '../../../lib/game-api'
import type { RoomPhase } from '../../../lib/trivia-events'

export interface RoomSummary {
  readonly code: string
  readonly phase: RoomPhase
  readonly host: { readonly name: string }
  readonly players: readonly { readonly id: string; readonly name: string }[]
}

/** GET /api/rooms/{code} tells whether a room is there to join, before the page asks for a name. */
export function getRoomSummary(code: string): Promise<RoomSummary> {
  return gameRequest<RoomSummary>('GET', `/api/rooms/${encodeURIComponent(code)}`)
}
