import type { JoinedRoom, JoinRoomBody } from '@app/protocol'
import { gameRequest } from '../../../lib/game-api'

export type Seat = JoinedRoom

/** POST /api/rooms/{code}/players: a seat in the room's lobby, and its token. */
export function joinRoom(code: string, name: string): Promise<Seat> {
  return gameRequest<Seat>('POST', `/api/rooms/${encodeURIComponent(code)}/players`, { name } satisfies JoinRoomBody)
}
