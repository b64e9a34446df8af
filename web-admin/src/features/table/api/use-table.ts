import type { CardsCommands } from '@game-rooms/client/cards'
import { applyTableEvent, TABLE_EVENT_TYPES, type TableEvent, type TableView } from '../../../lib/table-view'
import { type SeatConnection, useSeat } from '../../../lib/use-seat'

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

export type TableConnection = SeatConnection<TableView, CardsCommands>

const applyTable = (view: TableView | undefined, type: keyof TableEvents & string, data: unknown, now: number) =>
  applyTableEvent(view, { type, data } as TableEvent, now)

/** The human's live table: its events folded into a TableView. */
export function useTable(storageKey: string | null): TableConnection {
  return useSeat<TableView, TableEvents, CardsCommands>(storageKey, TABLE_EVENT_TYPES, applyTable)
}
