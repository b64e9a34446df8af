import { Countdown } from '../../../components/countdown'
import type { RoomView } from '../../../lib/room-view'
import type { OpenQuestion } from '../../../lib/trivia-events'

export interface Pick {
  readonly question: number
  readonly choice: number
  /** `sending` until the server's reply; it may take a reconnect. */
  readonly state: 'sending' | 'in' | 'refused'
  readonly message?: string
}

export interface AnswerPadProps {
  readonly question: OpenQuestion
  readonly view: RoomView
  readonly pick: Pick | undefined
  readonly offline: boolean
  readonly onChoose: (choice: number) => void
}

const LETTERS = 'ABCDEF'

/** The open question's choices as big buttons named by their text, and what this player chose. */
export function AnswerPad({ question, view, pick, offline, onChoose }: AnswerPadProps) {
  const mine = view.myAnswer?.question === question.index ? view.myAnswer.choice : pick?.question === question.index ? pick.choice : undefined
  const locked = mine !== undefined && pick?.state !== 'refused'
  return (
    <section className="play-question" aria-label="Question">
      <div className="stage-head">
        <span className="stage-kicker">
          {question.index + 1} / {question.total}
        </span>
        <Countdown closesAt={question.closesAt} clockOffsetMs={view.clockOffsetMs} seconds={view.settings.secondsPerQuestion} />
      </div>
      <h1 className="play-question-text">{question.text}</h1>
      <div className="choice-grid">
        {question.choices.map((choice, i) => (
          <button
            key={i}
            type="button"
            className={`choice-button c${i} ${mine === i ? 'chosen' : ''} ${locked && mine !== i ? 'faded' : ''}`}
            aria-pressed={mine === i}
            aria-disabled={locked || undefined}
            onClick={() => !locked && onChoose(i)}
          >
            <span className="choice-letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            {choice}
          </button>
        ))}
      </div>
      <p className="pick-status" role="status">
        {mine !== undefined && view.myAnswer?.question === question.index && `Answer in: ${question.choices[mine]}. Waiting for the others…`}
        {mine !== undefined && view.myAnswer?.question !== question.index && pick?.state === 'sending' &&
          (offline ? `You chose ${question.choices[mine]}; it will be sent when you are back online.` : `Sending ${question.choices[mine]}…`)}
        {pick?.state === 'refused' && pick.question === question.index && pick.message}
      </p>
    </section>
  )
}
