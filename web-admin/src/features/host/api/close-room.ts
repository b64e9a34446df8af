import { gameRequest } from '../../../lib/game-api'

/** DELETE /api/rooms/{code} with the host's token closes the room, and everyone's socket closes with 4004. */
export function closeRoom(code: string, hostToken: string): Promise<void> {
  return gameRequest<void>('DELETE', `/api/rooms/${encodeURIComponent(code)}`, undefined, hostToken)
}
