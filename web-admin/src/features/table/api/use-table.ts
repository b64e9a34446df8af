import { useCallback, useEffect, useRef, useState } from 'react'
import { ReconnectingClient, type ConnectionStatus, type ReplyFrame } from '@app/protocol'
import { applyTableEvent, TABLE_EVENT_TYPES, type TableEvent, type TableView } from '../../../lib/table-view'
import { wsUrl } from '../../../lib/use-room'

type TableEvents = { [E in TableEvent as E['type']]: E['data'] }

/** The key under which the human's table token is kept in sessionStorage. */
export function tableKey(code: string): string {
  return `cards:player:${code.toUpperCase()}`
}

/**
 * Takes `?token=` (the link POST /api/tables's opener was given) into session storage once, and
 * out of the address bar so it does not sit in history or get shared with the link.
 */
export function adoptTableToken(code: string, location: Location = window.location, history: History = window.history): void {
  const url = new URL(location.href)
  const token = url.searchParams.get('token')
  if (token === null) return
  url.searchParams.delete('token')
  history.replaceState(history.state, '', url.pathname + url.search + url.hash)
  if (token.trim()) window.sessionStorage.setItem(tableKey(code), token.trim())
}

export interface TableConnection {
  readonly view: TableView | undefined
  readonly status: ConnectionStatus
  readonly send: (type: string, data?: Record<string, unknown>) => Promise<ReplyFrame>
  readonly update: (change: (view: TableView) => TableView) => void
}

/** The human's live table: a ReconnectingClient for the stored token, its events folded into a TableView. */
export function useTable(storageKey: string | null): TableConnection {
  const [view, setView] = useState<TableView | undefined>(undefined)
  const [status, setStatus] = useState<ConnectionStatus>({ state: 'connecting', attempt: 0 })
  const clientRef = useRef<ReconnectingClient<TableEvents> | null>(null)

  useEffect(() => {
    if (!storageKey) return
    const client = new ReconnectingClient<TableEvents>({ url: (token) => wsUrl(token), storage: window.sessionStorage, storageKey })
    clientRef.current = client
    const offs = TABLE_EVENT_TYPES.map((type) =>
      client.on(type, (data) => setView((v) => applyTableEvent(v, { type, data } as TableEvent, Date.now()))),
    )
    offs.push(client.onStatus(setStatus))
    const online = () => client.retryNow()
    window.addEventListener('online', online)
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
  const update = useCallback((change: (view: TableView) => TableView) => setView((v) => (v ? change(v) : v)), [])
  return { view, status, send, update }
}
