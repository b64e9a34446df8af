import type { RoomView } from '../../../lib/room-view'
import type { Reveal } from '../../../lib/trivia-events'

const LETTERS = 'ABCDEF'

/** The right answer, how many chose each choice, and what each player scored on it. */
export function RevealStage({ reveal, view }: { readonly reveal: Reveal; readonly view: RoomView }) {
  const most = Math.max(1, ...reveal.counts)
  const names = new Map(view.players.map((p) => [p.id, p.name]))
  const scores = [...reveal.scores].sort((a, b) => b.total - a.total)
  return (
    <section className="stage reveal-stage" aria-label="Reveal">
      <div className="stage-head">
        <span className="stage-kicker">Answer to question {reveal.index + 1}</span>
      </div>
      {view.revealed && <h1 className="question-text small">{view.revealed.text}</h1>}
      <ol className="reveal-counts" aria-label="Answers per choice">
        {reveal.counts.map((count, i) => (
          <li key={i} className={i === reveal.correct ? 'count-row correct' : 'count-row'} data-choice={i}>
            <span className="choice-letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            <span className="count-label">
              {view.revealed?.choices[i] ?? `Choice ${LETTERS[i]}`}
              {i === reveal.correct && <span className="correct-mark"> ✓ right answer</span>}
            </span>
            <span className="count-bar" aria-hidden="true">
              <span style={{ transform: `scaleX(${count / most})` }} />
            </span>
            <span className="count-number">{count}</span>
          </li>
        ))}
      </ol>
      <table className="score-table" aria-label="Scores">
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">This question</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {scores.map((s) => (
            <tr key={s.playerId} data-player-id={s.playerId}>
              <td>{names.get(s.playerId) ?? 'Gone'}</td>
              <td className="num">+{s.points}</td>
              <td className="num">{s.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
