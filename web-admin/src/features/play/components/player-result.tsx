import type { RoomView } from '../../../lib/room-view'
import type { Reveal } from '../../../lib/trivia-events'

/** After a reveal: right or wrong, the right answer, and the points this player got for it. */
export function PlayerResult({
  reveal,
  view,
  chose,
}: {
  readonly reveal: Reveal
  readonly view: RoomView
  readonly chose: number | undefined
}) {
  const mine = reveal.scores.find((s) => s.playerId === view.playerId)
  const right = view.revealed?.choices[reveal.correct] ?? `choice ${reveal.correct + 1}`
  const points = mine?.points ?? 0
  const verdict = points > 0 ? 'Right!' : chose === undefined ? 'No answer' : 'Not this time'
  return (
    <section className={`player-result ${points > 0 ? 'right' : 'wrong'}`} aria-label="Result">
      <p className="verdict">{verdict}</p>
      <p className="right-answer">
        The answer was <strong>{right}</strong>
      </p>
      <p className="points">
        <span className="points-gained">+{points}</span> points · total <strong>{mine?.total ?? 0}</strong>
      </p>
    </section>
  )
}
