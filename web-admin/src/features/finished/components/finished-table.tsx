import { Link } from '../../../components/link'
import { DASH } from '../../../lib/format'
import { navigate } from '../../../lib/router'
import type { FinishedGame } from '../api/finished-types'
import { formatDuration, formatNames, formatWhen } from '../utils/format-finished'

/** Shows one page of finished games, newest first. A row opens the game's detail. */
export function FinishedTable({ games }: { readonly games: readonly FinishedGame[] }) {
  return (
    <div className="scroll">
      <table className="table finished-table">
        <thead>
          <tr>
            <th scope="col">Finished</th>
            <th scope="col">Code</th>
            <th scope="col">Game</th>
            <th scope="col">Host</th>
            <th scope="col" className="num">
              Players
            </th>
            <th scope="col">Names</th>
            <th scope="col">Winner</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">
              Lasted
            </th>
          </tr>
        </thead>
        <tbody>
          {games.map((g) => (
            <tr
              key={g.id}
              className="clickable"
              data-game-id={g.id}
              onClick={(e) => {
                if (!(e.target as HTMLElement).closest('a')) navigate(`/finished/${g.id}`)
              }}
            >
              <td className="mono">
                <time dateTime={new Date(g.finishedAt).toISOString()}>{formatWhen(g.finishedAt)}</time>
              </td>
              <td>
                <Link to={`/finished/${g.id}`} className="room-code" aria-label={`Game ${g.number} of room ${g.code}`}>
                  {g.code}
                </Link>
                {g.number > 1 && <span className="muted"> · game {g.number}</span>}
              </td>
              <td>{g.game}</td>
              <td>{g.hostName ?? DASH}</td>
              <td className="num">{g.players.count}</td>
              <td className="finished-names" title={g.players.names.join(', ')}>
                {formatNames(g.players.names)}
              </td>
              <td className="finished-winner">{g.winner ?? DASH}</td>
              <td
                className="mono muted"
                title={
                  g.startedFrom === 'summary'
                    ? 'as the game reported it'
                    : g.startedFrom === 'previous_game'
                      ? 'when the room’s previous game finished'
                      : 'when the room opened'
                }
              >
                {formatWhen(g.startedAt)}
              </td>
              <td className="num">{formatDuration(g.finishedAt - g.startedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
