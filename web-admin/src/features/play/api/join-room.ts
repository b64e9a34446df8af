import type { JoinedRoom, JoinRoomBody } from '@game-rooms/client'
import { gameRequest } from '../../../lib/game-api'

export type Seat = JoinedRoom

/** POST /api/rooms/{code}/players takes a seat in the room's lobby and returns the seat's token. */
export function joinRoom(code: string, name: string): Promise<Seat> {
  return gameRequest<Seat>('POST', `/api/rooms/${encodeURIComponent(code)}/players`, { name } satisfies JoinRoomBody)
}
