import { Countdown } from '../../../components/countdown'
import type { RoomView } from '../../../lib/room-view'
import type { OpenQuestion } from '../../../lib/trivia-events'

const LETTERS = 'ABCDEF'

/** The open question, large, with its countdown and how many answered; never the right choice. */
export function QuestionStage({
  question,
  view,
  paused = false,
}: {
  readonly question: OpenQuestion
  readonly view: RoomView
  readonly paused?: boolean
}) {
  return (
    <section className="stage question-stage" aria-label="Question">
      <div className="stage-head">
        <span className="stage-kicker">
          Question {question.index + 1} of {question.total}
        </span>
        <Countdown
          closesAt={question.closesAt}
          clockOffsetMs={view.clockOffsetMs}
          seconds={view.settings.secondsPerQuestion}
          paused={paused}
        />
      </div>
      <h1 className="question-text">{question.text}</h1>
      <ol className="host-choices">
        {question.choices.map((choice, i) => (
          <li key={i} className={`host-choice c${i}`}>
            <span className="choice-letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            {choice}
          </li>
        ))}
      </ol>
      <p className="answered" role="status">
        {question.answered} of {question.of} answered
      </p>
    </section>
  )
}
