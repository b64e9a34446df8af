import { lateFromWords } from '../lib/late-arrival'
import type { Standing } from '../lib/trivia-events'

export interface StandingsListProps {
  readonly standings: readonly Standing[]
  /** This viewer's seat, highlighted. */
  readonly playerId?: string
  readonly className?: string
}

export function StandingsList({ standings, playerId, className }: StandingsListProps) {
  return (
    <ol className={`standings ${className ?? ''}`} aria-label="Standings">
      {standings.map((s) => (
        <li key={s.playerId} className={s.playerId === playerId ? 'me' : undefined} data-player-id={s.playerId}>
          <span className="standing-rank">{s.rank}</span>
          <span className="standing-name">
            {s.name}
            {lateFromWords(s) && <span className="standing-from"> ({lateFromWords(s)})</span>}
          </span>
          <span className="standing-score">{s.score}</span>
        </li>
      ))}
    </ol>
  )
}
