import { answerWords, kindOfReveal, rightAnswerWords, type AnswerValue } from '../../../lib/question-kinds'
import type { RoomView } from '../../../lib/room-view'
import type { Reveal } from '../../../lib/trivia-events'

/** Shows after a reveal: right or wrong (or, for a poll, thanks), the right answer, and the points this player got for it. */
export function PlayerResult({
  reveal,
  view,
  answered,
}: {
  readonly reveal: Reveal
  readonly view: RoomView
  /** This player's answer to the revealed question, when the page knows it. */
  readonly answered: AnswerValue | undefined
}) {
  const mine = reveal.scores.find((s) => s.playerId === view.playerId)
  const kind = view.revealed?.kind ?? kindOfReveal(reveal)
  const choices = view.revealed?.choices ?? []
  const right = rightAnswerWords(kind, reveal.correct, choices)
  const points = mine?.points ?? 0
  const verdict =
    kind === 'poll' ? (answered ? 'Vote counted' : 'No vote') : points > 0 ? 'Right!' : answered ? 'Not this time' : 'No answer'
  return (
    <section className={`player-result ${points > 0 ? 'right' : kind === 'poll' ? 'poll' : 'wrong'}`} aria-label="Result">
      <p className="verdict">{verdict}</p>
      {kind === 'poll' ? (
        <p className="right-answer">A poll has no right answer{answered ? `: you voted ${answerWords(answered, choices)}` : ''}.</p>
      ) : (
        <p className="right-answer">
          {kind === 'multi' ? 'The right answers were' : 'The answer was'} <strong>{right ?? 'not shown'}</strong>
          {answered && points === 0 && <span className="your-answer"> (you said {answerWords(answered, choices)})</span>}
        </p>
      )}
      <p className="points">
        <span className="points-gained">+{points}</span> points · total <strong>{mine?.total ?? 0}</strong>
      </p>
    </section>
  )
}
