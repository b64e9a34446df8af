import { Countdown } from '../../../components/countdown'
import { QuestionFace } from '../../../components/question-face'
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
  /** The room's clocks hold (its database is away): an answer could not be recorded now, so none is taken. */
  readonly paused?: boolean
  readonly onChoose: (choice: number) => void
}

/** The open question's choices as big buttons named by their text, and what this player chose. */
export function AnswerPad({ question, view, pick, offline, paused = false, onChoose }: AnswerPadProps) {
  const mine =
    view.myAnswer?.question === question.index ? view.myAnswer.choice : pick?.question === question.index ? pick.choice : undefined
  const locked = paused || (mine !== undefined && pick?.state !== 'refused')
  return (
    <QuestionFace
      kicker={`${question.index + 1} / ${question.total}`}
      timer={
        <Countdown
          closesAt={question.closesAt}
          clockOffsetMs={view.clockOffsetMs}
          seconds={view.settings.secondsPerQuestion}
          paused={paused}
        />
      }
      text={question.text}
      choices={question.choices}
      chosen={mine}
      locked={locked}
      onChoose={onChoose}
    >
      <p className="pick-status" role="status">
        {paused && mine === undefined && 'The clock is paused: answer when it runs again.'}
        {mine !== undefined &&
          view.myAnswer?.question === question.index &&
          `Answer in: ${question.choices[mine]}. Waiting for the others…`}
        {mine !== undefined &&
          view.myAnswer?.question !== question.index &&
          pick?.state === 'sending' &&
          (offline
            ? `You chose ${question.choices[mine]}; it will be sent when you are back online.`
            : `Sending ${question.choices[mine]}…`)}
        {pick?.state === 'refused' && pick.question === question.index && pick.message}
      </p>
    </QuestionFace>
  )
}
