import { useCallback, useEffect, useRef, useState } from 'react'
import { ReconnectingClient, type ConnectionStatus, type ReplyFrame } from '@app/protocol'
import { applyEvent, type RoomView } from './room-view'
import type { TriviaEvents } from './trivia-events'

const EVENT_TYPES: readonly (keyof TriviaEvents & string)[] = [
  'room.state',
  'player.joined',
  'player.left',
  'player.presence',
  'question.open',
  'question.progress',
  'question.closed',
  'game.finished',
  'rematch.open',
  'rematch.decided',
  'room.closed',
]

/** The key under which a seat's token is kept in sessionStorage: one per role and room. */
export function seatKey(role: 'host' | 'player', code: string): string {
  return `trivia:${role}:${code.toUpperCase()}`
}

export function wsUrl(token: string, location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`
}

export interface RoomConnection {
  readonly view: RoomView | undefined
  readonly status: ConnectionStatus
  readonly send: (type: string, data?: Record<string, unknown>) => Promise<ReplyFrame>
  /** Lets a page apply a confirmed change of its own (its answer, its vote) to the view. */
  readonly update: (change: (view: RoomView) => RoomView) => void
}

/**
 * One seat's live room: a ReconnectingClient for the token kept under `storageKey`, its events
 * folded into a RoomView. Null storageKey: nothing to connect yet.
 */
export function useRoom(storageKey: string | null): RoomConnection {
  const [view, setView] = useState<RoomView | undefined>(undefined)
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connecting', attempt: 0 })
  const clientRef = useRef<ReconnectingClient<TriviaEvents> | null>(null)

  useEffect(() => {
    if (!storageKey) return
    const client = new ReconnectingClient<TriviaEvents>({ url: (token) => wsUrl(token), storage: window.sessionStorage, storageKey })
    clientRef.current = client
    const offs = EVENT_TYPES.map((type) =>
      client.on(type, (data) => setView((v) => applyEvent(v, { type, data } as Parameters<typeof applyEvent>[1], Date.now()))),
    )
    offs.push(client.onStatus(setStatus))
    // The phone says its network is back: no need to sit out the rest of the backoff.
    const online = () => client.retryNow()
    window.addEventListener('online', online)
    // The status listener is in place, so even an immediate end (no token) is seen.
    client.start()
    return () => {
      window.removeEventListener('online', online)
      for (const off of offs) off()
      client.close()
      clientRef.current = null
    }
  }, [storageKey])

  const send = useCallback((type: string, data: Record<string, unknown> = {}) => {
    const client = clientRef.current
    return client ? client.send(type, data) : Promise.reject(new Error('not connected'))
  }, [])
  const update = useCallback((change: (view: RoomView) => RoomView) => setView((v) => (v ? change(v) : v)), [])
  return { view, status, send, update }
}
