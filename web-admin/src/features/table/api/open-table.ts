import type { OpenedTable } from '@app/protocol'
import { gameRequest } from '../../../lib/game-api'

export type { OpenedTable }

/** POST /api/tables: a practice table with the server's default bots and blinds, and the human's token. */
export function openTable(name: string): Promise<OpenedTable> {
  return gameRequest<OpenedTable>('POST', '/api/tables', { name })
}
