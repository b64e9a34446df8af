import { useEffect, useState } from 'react'
import type { RoomsSnapshot } from '../../../lib/admin-types'
import { adminRequest, describeError } from '../../../lib/api-client'
import { useLive, useLiveStore } from '../../../lib/live-context'

export function getRooms(signal?: AbortSignal): Promise<RoomsSnapshot> {
  return adminRequest<RoomsSnapshot>('/rooms', { signal })
}

export interface RoomsData {
  readonly rooms: RoomsSnapshot | null
  /** The local time when the list last changed. */
  readonly updatedAt: number | null
  readonly error: string | null
}

/** Every live room, kept current by the stream. One GET comes first so that the table fills at once. */
export function useRooms(): RoomsData {
  const store = useLiveStore()
  const rooms = useLive((s) => s.rooms)
  const updatedAt = useLive((s) => s.roomsAt)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (store.getState().rooms) return
    const abort = new AbortController()
    getRooms(abort.signal).then(
      (data) => store.seedRooms(data),
      (err: unknown) => abort.signal.aborted || setError(describeError(err)),
    )
    return () => abort.abort()
  }, [store])
  return { rooms, updatedAt, error: rooms ? null : error }
}
