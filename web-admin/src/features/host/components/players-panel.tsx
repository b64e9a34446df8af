import type { SeatView } from '../../../lib/trivia-events'

export interface PlayersPanelProps {
  readonly players: readonly SeatView[]
  readonly maxPlayers: number
  readonly onKick: (player: SeatView) => void
}

/** Shows the seated players as they come and go, each with a kick button. */
export function PlayersPanel({ players, maxPlayers, onKick }: PlayersPanelProps) {
  return (
    <section className="players-panel" aria-label="Players">
      <h2>
        Players{' '}
        <span className="muted">
          {players.length} / {maxPlayers}
        </span>
      </h2>
      {players.length === 0 && <p className="muted">Nobody yet. Scan the code to join.</p>}
      <ul className="player-chips">
        {players.map((p) => (
          <li key={p.id} className={p.connected ? 'player-chip' : 'player-chip away'} data-player-id={p.id}>
            <span className="player-name">{p.name}</span>
            <span className="player-score">{p.score}</span>
            {!p.connected && <span className="muted small">away</span>}
            <button type="button" className="kick" onClick={() => onKick(p)} aria-label={`Kick ${p.name}`}>
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
