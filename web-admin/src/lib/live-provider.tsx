import { useEffect, useState, type ReactNode } from 'react'
import { AdminStream, adminStreamUrl } from './admin-stream'
import { ADMIN_API, adminRequest } from './api-client'
import { LiveContext } from './live-context'
import { LiveStore } from './live-store'

export interface LiveProviderProps {
  readonly children: ReactNode
  /** Tests pass a store over a fake stream. */
  readonly store?: LiveStore
}

/** Opens the admin stream for the signed-in session and closes it on sign-out. */
export function LiveProvider({ children, store: given }: LiveProviderProps) {
  const [store] = useState(() => given ?? createLiveStore())
  useEffect(() => {
    store.start()
    return () => store.stop()
  }, [store])
  return <LiveContext.Provider value={store}>{children}</LiveContext.Provider>
}

function createLiveStore(): LiveStore {
  const stream = new AdminStream({
    url: (room) => adminStreamUrl(ADMIN_API, room),
    // EventSource cannot tell a 401 (the session expired) from an outage, but one plain request can.
    // A 401 to that request signs the session out (see adminRequest). Any other failure is an
    // outage, and the stream retries.
    onClosedByServer: () => void adminRequest('/session').catch(() => undefined),
  })
  return new LiveStore(stream)
}
