import { createContext, useContext, useSyncExternalStore } from 'react'
import type { StreamStatus } from './admin-stream'
import type { LiveState, LiveStore } from './live-store'

export const LiveContext = createContext<LiveStore | null>(null)

export function useLiveStore(): LiveStore {
  const store = useContext(LiveContext)
  if (!store) throw new Error('useLiveStore needs a <LiveProvider> above it')
  return store
}

/** Reads one part of the live state. `select` must return a part of the state, not a new object. */
export function useLive<T>(select: (state: LiveState) => T): T {
  const store = useLiveStore()
  return useSyncExternalStore(store.subscribe, () => select(store.getState()))
}

export function useStreamStatus(): StreamStatus {
  const { stream } = useLiveStore()
  return useSyncExternalStore(stream.subscribeStatus, stream.getStatus)
}
