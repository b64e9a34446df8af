import { useState } from 'react'
import { Panel } from '../../../components/panel'
import { formatAge } from '../../../lib/format'
import { useNow } from '../../../hooks/use-now'
import { useRooms } from '../api/get-rooms'
import type { RoomSort } from '../utils/sort-rooms'
import { RoomsTable } from './rooms-table'

export function RoomsPage() {
  const { rooms, updatedAt, error } = useRooms()
  const [filter, setFilter] = useState('')
  const [sort, setSort] = useState<RoomSort>({ key: 'code', direction: 'asc' })
  const now = useNow(1000)

  if (!rooms) {
    return <p className={error ? 'page-error' : 'loading'}>{error ? `Could not load the rooms: ${error}` : 'Loading rooms…'}</p>
  }
  const connected = rooms.rooms.reduce((n, r) => n + r.playersConnected, 0)
  return (
    <div className="page">
      <Panel
        title="Rooms"
        aside={
          <>
            <span className="muted">
              {rooms.rooms.length} live · {connected} players connected
              {updatedAt !== null && ` · updated ${formatAge((now - updatedAt) / 1000)} ago`}
            </span>
            <input
              type="search"
              className="filter"
              placeholder="Filter by code"
              aria-label="Filter rooms by code"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              spellCheck={false}
              autoCapitalize="characters"
            />
          </>
        }
      >
        <RoomsTable rooms={rooms.rooms} filter={filter} sort={sort} onSort={setSort} />
        <p className="legend-line muted">Mailbox: commands queued now / the deepest it has been. The bar's faint part is the peak.</p>
      </Panel>
    </div>
  )
}
