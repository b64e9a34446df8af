import type { Standing } from '../../../lib/trivia-events'

/**
 * The top three of the final standings on steps, for the projector: first in the middle and
 * highest, second to its left, third to its right. In the page's order (and to a screen reader)
 * they come first, second, third; players who tie share a rank and a step's height.
 */
export function Podium({ standings }: { readonly standings: readonly Standing[] }) {
  const top = standings.slice(0, 3)
  if (top.length === 0) return null
  return (
    <ol className="podium" aria-label="Podium">
      {top.map((s, i) => (
        <li key={s.playerId} className={`podium-place place-${i + 1} step-${Math.min(3, s.rank)}`} data-player-id={s.playerId}>
          <span className="podium-name">{s.name}</span>
          <span className="podium-score">{s.score} points</span>
          <span className="podium-step">
            <span className="visually-hidden">Place </span>
            {s.rank}
          </span>
        </li>
      ))}
    </ol>
  )
}
