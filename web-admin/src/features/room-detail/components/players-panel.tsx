import { Panel } from '../../../components/panel'
import type { RoomPlayer } from '../../../lib/admin-types'
import { formatCount } from '../../../lib/format'

export interface PlayersPanelProps {
  readonly players: readonly RoomPlayer[]
  /** Null when the room is gone, since nobody can be kicked then. */
  readonly onKick: ((player: RoomPlayer) => void) | null
}

/** Lists the seats, best score first, and shows who is connected right now. */
export function PlayersPanel({ players, onKick }: PlayersPanelProps) {
  const ranked = [...players].sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
  const connected = players.filter((p) => p.connected).length
  return (
    <Panel
      title="Players"
      aside={
        <span className="muted">
          {connected} of {players.length} connected
        </span>
      }
    >
      {ranked.length === 0 ? (
        <p className="empty">No players have joined.</p>
      ) : (
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Player</th>
              <th scope="col">Presence</th>
              <th scope="col" className="num">
                Score
              </th>
              <th scope="col" className="actions-col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {ranked.map((player) => (
              <tr key={player.id} data-player-id={player.id}>
                <td>
                  <span className="player-name">{player.name}</span>
                </td>
                <td>
                  <span className={`presence ${player.connected ? 'online' : 'offline'}`}>
                    <span className="presence-dot" aria-hidden="true" />
                    {player.connected ? 'connected' : 'away'}
                  </span>
                </td>
                <td className="num">{formatCount(player.score)}</td>
                <td className="actions-col">
                  {onKick && (
                    <button
                      type="button"
                      className="button small danger-outline"
                      aria-label={`Kick ${player.name}`}
                      onClick={() => onKick(player)}
                    >
                      Kick
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}
