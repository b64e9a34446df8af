import { lateFrom } from '../../../lib/late-arrival'
import type { Standing } from '../../../lib/trivia-events'

/** Shows the final standings as a table: rank, name, score, right answers, and from which question a late arrival played. */
export function StandingsTable({ standings }: { readonly standings: readonly Standing[] }) {
  const anyLate = standings.some((s) => lateFrom(s) !== undefined)
  return (
    <table className="score-table results-table">
      <caption className="visually-hidden">Final standings</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col" className="num">
            Score
          </th>
          <th scope="col" className="num">
            Right answers
          </th>
          {anyLate && <th scope="col">Played from</th>}
        </tr>
      </thead>
      <tbody>
        {standings.map((s) => (
          <tr key={s.playerId} data-player-id={s.playerId}>
            <td>{s.rank}</td>
            <th scope="row">{s.name}</th>
            <td className="num">{s.score}</td>
            <td className="num">{s.correct}</td>
            {anyLate && <td>{lateFrom(s) === undefined ? 'the start' : `question ${lateFrom(s)! + 1}`}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
