import { Countdown } from '../../../components/countdown'
import { QuestionPicture } from '../../../components/question-picture'
import { choicesOf, imageOf, KIND_HINTS, kindOf, secondsOf } from '../../../lib/question-kinds'
import type { RoomView } from '../../../lib/room-view'
import type { OpenQuestion } from '../../../lib/trivia-events'

const LETTERS = 'ABCDEF'

/** Shows the open question large, with its picture, its countdown and how many answered. It never shows the right answer. */
export function QuestionStage({
  question,
  view,
  paused = false,
}: {
  readonly question: OpenQuestion
  readonly view: RoomView
  readonly paused?: boolean
}) {
  const kind = kindOf(question)
  const choices = choicesOf(question)
  const image = imageOf(question)
  return (
    <section className={`stage question-stage kind-${kind}`} aria-label="Question">
      <div className="stage-head">
        <span className="stage-kicker">
          Question {question.index + 1} of {question.total}
          <span className="kind-hint"> · {KIND_HINTS[kind]}</span>
        </span>
        <Countdown
          closesAt={question.closesAt}
          clockOffsetMs={view.clockOffsetMs}
          seconds={secondsOf(question, view.settings.secondsPerQuestion)}
          paused={paused}
        />
      </div>
      <h1 className="question-text">{question.text}</h1>
      {image && <QuestionPicture src={image} className="host-picture" />}
      {choices.length > 0 && (
        <ol className="host-choices">
          {choices.map((choice, i) => (
            <li key={i} className={`host-choice c${i}`}>
              <span className="choice-letter" aria-hidden="true">
                {LETTERS[i]}
              </span>
              {choice}
            </li>
          ))}
        </ol>
      )}
      <p className="answered" role="status">
        {question.answered} of {question.of} answered
      </p>
    </section>
  )
}
