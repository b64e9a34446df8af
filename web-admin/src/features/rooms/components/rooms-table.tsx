import { PhaseBadge } from '../../../components/phase-badge'
import type { RoomRow } from '../../../lib/admin-types'
import { DASH, formatAge, formatCount, formatMs } from '../../../lib/format'
import { Link } from '../../../components/link'
import { navigate } from '../../../lib/router'
import { deepestMailbox, defaultDirection, filterAndSortRooms, type RoomSort, type RoomSortKey } from '../utils/sort-rooms'

const COLUMNS: readonly { key: RoomSortKey; label: string; numeric?: boolean }[] = [
  { key: 'code', label: 'Code' },
  { key: 'phase', label: 'Phase' },
  { key: 'players', label: 'Players', numeric: true },
  { key: 'question', label: 'Question', numeric: true },
  { key: 'mailbox', label: 'Mailbox', numeric: true },
  { key: 'commands', label: 'Commands', numeric: true },
  { key: 'latency', label: 'Last latency', numeric: true },
  { key: 'age', label: 'Age', numeric: true },
]

export interface RoomsTableProps {
  readonly rooms: readonly RoomRow[]
  readonly filter: string
  readonly sort: RoomSort
  readonly onSort: (sort: RoomSort) => void
}

/** Lists every live room. The deepest mailbox is highlighted, and a row opens the room. */
export function RoomsTable({ rooms, filter, sort, onSort }: RoomsTableProps) {
  const rows = filterAndSortRooms(rooms, filter, sort)
  const deepest = deepestMailbox(rooms)
  // Bars are scaled to the worst peak in view, so a depth of 3 looks small next to a peak of 60.
  const scale = Math.max(1, ...rooms.map((r) => r.mailboxDepthMax), deepest)

  const sortBy = (key: RoomSortKey) =>
    onSort(sort.key === key ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: defaultDirection(key) })

  return (
    <table className="table rooms-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th
              key={c.key}
              scope="col"
              className={c.numeric ? 'num' : undefined}
              aria-sort={sort.key === c.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              <button type="button" className="sort-button" onClick={() => sortBy(c.key)}>
                {c.label}
                <span className="sort-arrow" aria-hidden="true">
                  {sort.key === c.key ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
                </span>
              </button>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length} className="empty">
              {rooms.length === 0 ? 'No live rooms.' : `No room code contains “${filter.trim().toUpperCase()}”.`}
            </td>
          </tr>
        )}
        {rows.map((room) => {
          const isDeepest = deepest > 0 && room.mailboxDepth === deepest
          return (
            <tr
              key={room.code}
              data-room-code={room.code}
              className={`clickable${isDeepest ? ' deepest' : ''}`}
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a')) navigate(`/rooms/${room.code}`)
              }}
            >
              <td>
                <Link to={`/rooms/${room.code}`} className="room-code">
                  {room.code}
                </Link>
              </td>
              <td>
                <PhaseBadge phase={room.phase} />
              </td>
              <td className="num" data-col="players">
                <span className={room.playersConnected < room.players ? 'warn-text' : undefined}>{room.playersConnected}</span>
                <span className="muted"> / {room.players}</span>
              </td>
              <td className="num" data-col="question">
                {room.question === null ? DASH : `Q${room.question + 1}`}
              </td>
              <td className="num mailbox-cell" data-col="mailbox">
                <div>
                  <span className="mailbox-bar" aria-hidden="true">
                    <span className="mailbox-peak" style={{ width: `${(room.mailboxDepthMax / scale) * 100}%` }} />
                    <span className="mailbox-now" style={{ width: `${(room.mailboxDepth / scale) * 100}%` }} />
                  </span>
                  <span className="mailbox-depth" title={`${room.mailboxDepth} queued now, ${room.mailboxDepthMax} at the deepest`}>
                    {room.mailboxDepth}
                  </span>
                  <span className="muted mailbox-max"> / {room.mailboxDepthMax}</span>
                  {/* Always there, hidden unless deepest, so the numbers line up down the column. */}
                  <span className={`deepest-tag${isDeepest ? '' : ' is-placeholder'}`} aria-hidden={!isDeepest}>
                    deepest
                  </span>
                </div>
              </td>
              <td className="num">{formatCount(room.commands)}</td>
              <td className="num">{formatMs(room.lastCommandMs)}</td>
              <td className="num">{formatAge(room.ageSeconds)}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
