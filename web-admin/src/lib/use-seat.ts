import { useCallback, useEffect, useRef, useState } from 'react'
import {
  ReconnectingClient,
  ROOM_PAUSED,
  ROOM_RESUMED,
  type CommandArgs,
  type CommandMap,
  type ConnectionStatus,
  type EventMap,
  type ReplyFrame,
  type RoomEvents,
} from '@game-rooms/client'

/**
 * The seat's socket URL. A page's path carries its room's code (/play/CODE, /host/CODE,
 * /table/CODE). The URL carries the code beside the token as `room=`, so that a proxy in front of
 * several instances sends the socket where it sent the page (PROTOCOL.md section 10).
 */
export function wsUrl(token: string, location: Pick<Location, 'protocol' | 'host' | 'pathname'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  const [page, code] = location.pathname.split('/').filter(Boolean)
  const room = code && ['play', 'host', 'table'].includes(page) ? `room=${encodeURIComponent(code)}&` : ''
  return `${scheme}://${location.host}/ws?${room}token=${encodeURIComponent(token)}`
}

type AnyCommands = Record<string, Record<string, unknown>>

export interface SeatConnection<V, Commands extends CommandMap = AnyCommands> {
  readonly view: V | undefined
  readonly status: ConnectionStatus
  /**
   * True while the room's clocks hold (from `room.paused` until `room.resumed`). The room's
   * database cannot record anything then, so nothing runs out.
   */
  readonly paused: boolean
  /** The game's commands only, each with its data's shape (the client package's schemas). */
  readonly send: <K extends keyof Commands & string>(type: K, ...args: CommandArgs<Commands, K>) => Promise<ReplyFrame>
  /** Lets a page apply a confirmed change of its own (its answer, its vote) to the view. */
  readonly update: (change: (view: V) => V) => void
}

/**
 * One seat's live connection, whatever the game. It runs a ReconnectingClient for the token kept
 * under `storageKey`, and `apply` folds each of `eventTypes` into a view. A null storageKey means
 * there is nothing to connect yet. `eventTypes` and `apply` must be stable (module-level).
 */
export function useSeat<V, Events extends EventMap, Commands extends CommandMap = AnyCommands>(
  storageKey: string | null,
  eventTypes: readonly (keyof Events & string)[],
  apply: (view: V | undefined, type: keyof Events & string, data: unknown, now: number) => V | undefined,
): SeatConnection<V, Commands> {
  const [view, setView] = useState<V | undefined>(undefined)
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connecting', attempt: 0 })
  const [paused, setPaused] = useState(false)
  const clientRef = useRef<ReconnectingClient<Events & RoomEvents, Commands> | null>(null)

  useEffect(() => {
    if (!storageKey) return
    const client = new ReconnectingClient<Events & RoomEvents, Commands>({
      url: (token) => wsUrl(token),
      storage: window.sessionStorage,
      storageKey,
    })
    clientRef.current = client
    const offs = eventTypes.map((type) => client.on(type, (data) => setView((v) => apply(v, type, data, Date.now()))))
    // Every room, whatever its game, says when its clocks hold and when they run again. If they
    // still hold when a new socket connects, the room tells that socket again, after the room's state.
    offs.push(client.on(ROOM_PAUSED, () => setPaused(true)))
    offs.push(client.on(ROOM_RESUMED, () => setPaused(false)))
    offs.push(
      client.onStatus((s) => {
        setStatus(s)
        if (s.state === 'open') setPaused(false)
      }),
    )
    // When the phone says its network is back, there is no need to sit out the rest of the backoff.
    const online = () => client.retryNow()
    window.addEventListener('online', online)
    // The status listener is already in place, so even an immediate end (with no token) is seen.
    client.start()
    return () => {
      window.removeEventListener('online', online)
      for (const off of offs) off()
      client.close()
      clientRef.current = null
    }
  }, [storageKey, eventTypes, apply])

  const send = useCallback(<K extends keyof Commands & string>(type: K, ...args: CommandArgs<Commands, K>) => {
    const client = clientRef.current
    return client ? client.send(type, ...args) : Promise.reject(new Error('not connected'))
  }, [])
  const update = useCallback((change: (view: V) => V) => setView((v) => (v ? change(v) : v)), [])
  return { view, status, paused, send, update }
}
