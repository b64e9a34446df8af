import { useEffect, useState } from 'react'
import type { RoomDetail } from '../../../lib/admin-types'
import { ApiError, adminRequest, describeError } from '../../../lib/api-client'
import { useLive, useLiveStore } from '../../../lib/live-context'

export function getRoom(code: string, signal?: AbortSignal): Promise<RoomDetail> {
  return adminRequest<RoomDetail>(`/rooms/${encodeURIComponent(code)}`, { signal })
}

export interface RoomData {
  readonly detail: RoomDetail | null
  /** True when the room is not live: closed, expired, or unknown. */
  readonly gone: boolean
  readonly error: string | null
  /** The server's clock minus ours, for the open question's deadline. */
  readonly serverOffsetMs: number
}

/**
 * One room, kept current by the stream while this view is open. The stream is asked for the room
 * only while the view is open. One GET comes first so that the page fills at once.
 */
export function useRoom(code: string): RoomData {
  const store = useLiveStore()
  const upper = code.toUpperCase()
  const watched = useLive((s) => s.room)
  const serverOffsetMs = useLive((s) => s.serverOffsetMs)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    store.watchRoom(upper)
    const abort = new AbortController()
    getRoom(upper, abort.signal).then(
      (detail) => store.seedRoom(detail),
      (err: unknown) => {
        if (abort.signal.aborted) return
        if (err instanceof ApiError && err.status === 404) store.seedRoomGone(upper)
        else setError(describeError(err))
      },
    )
    return () => {
      abort.abort()
      store.watchRoom(null)
    }
  }, [store, upper])

  const mine = watched?.code === upper ? watched : null
  return { detail: mine?.detail ?? null, gone: mine?.gone ?? false, error: mine?.detail ? null : error, serverOffsetMs }
}
