import { useCallback } from 'react'
import { adminRequest } from '../../../lib/api-client'

/** Closes a live room: everyone in it is told `room.closed` and disconnected with 4004. */
export async function closeRoom(code: string): Promise<void> {
  await adminRequest<void>(`/rooms/${encodeURIComponent(code)}/close`, { method: 'POST' })
}

export function useCloseRoom(code: string): () => Promise<void> {
  return useCallback(() => closeRoom(code), [code])
}
