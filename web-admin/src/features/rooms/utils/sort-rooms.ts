import type { RoomRow } from '../../../lib/admin-types'

export type RoomSortKey = 'code' | 'phase' | 'players' | 'question' | 'mailbox' | 'commands' | 'latency' | 'age'

export interface RoomSort {
  readonly key: RoomSortKey
  readonly direction: 'asc' | 'desc'
}

// The phases from lobby to finished, in the order a game goes, so that sorting by phase groups rooms
// by progress.
const PHASE_ORDER: Readonly<Record<string, number>> = { lobby: 0, question: 1, reveal: 2, finished: 3, closed: 4 }

const VALUE: Record<RoomSortKey, (room: RoomRow) => number | string> = {
  code: (r) => r.code,
  phase: (r) => PHASE_ORDER[r.phase] ?? 9,
  players: (r) => r.playersConnected * 1000 + r.players,
  question: (r) => r.question ?? -1,
  mailbox: (r) => r.mailboxDepth * 1e6 + r.mailboxDepthMax,
  commands: (r) => r.commands,
  latency: (r) => r.lastCommandMs ?? -1,
  age: (r) => r.ageSeconds,
}

/** Numbers read best with the biggest first; names and phases read best from A to Z. */
export function defaultDirection(key: RoomSortKey): RoomSort['direction'] {
  return key === 'code' || key === 'phase' ? 'asc' : 'desc'
}

/** Rooms whose code contains `filter` (any case), in the given order; ties fall back to code. */
export function filterAndSortRooms(rooms: readonly RoomRow[], filter: string, sort: RoomSort): RoomRow[] {
  const needle = filter.trim().toUpperCase()
  const value = VALUE[sort.key]
  const sign = sort.direction === 'asc' ? 1 : -1
  return rooms
    .filter((r) => r.code.toUpperCase().includes(needle))
    .sort((a, b) => {
      const va = value(a)
      const vb = value(b)
      const order = va < vb ? -1 : va > vb ? 1 : 0
      return order !== 0 ? order * sign : a.code.localeCompare(b.code)
    })
}

/** The deepest current mailbox, or 0 when every mailbox is empty, in which case nothing is highlighted. */
export function deepestMailbox(rooms: readonly RoomRow[]): number {
  return rooms.reduce((max, r) => Math.max(max, r.mailboxDepth), 0)
}
