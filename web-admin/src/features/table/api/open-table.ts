import type { OpenedTable } from '@game-rooms/client'
import { gameRequest } from '../../../lib/game-api'

export type { OpenedTable }

/** POST /api/tables opens a practice table with the server's default bots and blinds, and returns the human's token. */
export function openTable(name: string): Promise<OpenedTable> {
  return gameRequest<OpenedTable>('POST', '/api/tables', { name })
}
