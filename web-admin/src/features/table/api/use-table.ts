import type { CardsCommands } from '@game-rooms/client/cards'
import { applyTableEvent, TABLE_EVENT_TYPES, type TableEvent, type TableView } from '../../../lib/table-view'
import { type SeatConnection, useSeat } from '../../../lib/use-seat'

type TableEvents = { [E in TableEvent as E['type']]: E['data'] }

/** The key under which the human's table token is kept in sessionStorage. */
export function tableKey(code: string): string {
  return `cards:player:${code.toUpperCase()}`
}

/**
 * Moves `?token=` once from the address bar into session storage. The token is in the link that
 * POST /api/tables gave the table's opener. Taking it out of the address bar keeps it out of
 * history and out of a shared link.
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

/** The human's live table, with its events folded into a TableView. */
export function useTable(storageKey: string | null): TableConnection {
  return useSeat<TableView, TableEvents, CardsCommands>(storageKey, TABLE_EVENT_TYPES, applyTable)
}
