import { useCallback } from 'react'
import { adminRequest } from '../../../lib/api-client'

/** Removes a player from a room. The player's sockets close with 4003, and the seat is gone. */
export async function kickPlayer(code: string, playerId: string): Promise<void> {
  await adminRequest<void>(`/rooms/${encodeURIComponent(code)}/kick`, { method: 'POST', body: { playerId } })
}

export function useKickPlayer(code: string): (playerId: string) => Promise<void> {
  return useCallback((playerId: string) => kickPlayer(code, playerId), [code])
}
