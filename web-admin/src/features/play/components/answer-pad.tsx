import { MultiChoiceForm, TypedAnswerForm } from '../../../components/answer-forms'
import { Countdown } from '../../../components/countdown'
import { QuestionFace, QuestionFrame } from '../../../components/question-face'
import { answerWords, choicesOf, imageOf, kindOf, secondsOf, type AnswerValue } from '../../../lib/question-kinds'
import type { MyAnswer, RoomView } from '../../../lib/room-view'
import type { OpenQuestion } from '../../../lib/trivia-events'

export interface Pick {
  readonly question: number
  readonly answer: AnswerValue
  /** `sending` until the server replies, which may take a reconnect. */
  readonly state: 'sending' | 'in' | 'refused'
  readonly message?: string
}

export interface AnswerPadProps {
  readonly question: OpenQuestion
  readonly view: RoomView
  readonly pick: Pick | undefined
  readonly offline: boolean
  /** True while the room's clocks hold because its database is away. An answer could not be recorded then, so none is taken. */
  readonly paused?: boolean
  readonly onAnswer: (answer: AnswerValue) => void
}

/** Shows the open question on a phone, with the answer its kind takes: a choice, several choices and Submit, or a typed text. */
export function AnswerPad({ question, view, pick, offline, paused = false, onAnswer }: AnswerPadProps) {
  const kind = kindOf(question)
  const choices = choicesOf(question)
  const confirmed: MyAnswer | undefined = view.myAnswer?.question === question.index ? view.myAnswer : undefined
  const mine: AnswerValue | undefined =
    confirmed ?? (pick?.question === question.index && pick.state !== 'refused' ? pick.answer : undefined)
  const locked = paused || mine !== undefined
  const frame = {
    kicker: `${question.index + 1} / ${question.total}`,
    timer: (
      <Countdown
        closesAt={question.closesAt}
        clockOffsetMs={view.clockOffsetMs}
        seconds={secondsOf(question, view.settings.secondsPerQuestion)}
        paused={paused}
      />
    ),
    text: question.text,
    image: imageOf(question),
  }
  const status = (
    <p className="pick-status" role="status">
      {paused && mine === undefined && 'The clock is paused: answer when it runs again.'}
      {mine !== undefined && confirmed && `Answer in: ${answerWords(mine, choices)}. Waiting for the others…`}
      {mine !== undefined &&
        !confirmed &&
        (offline
          ? `You chose ${answerWords(mine, choices)}; it will be sent when you are back online.`
          : `Sending ${answerWords(mine, choices)}…`)}
      {pick?.state === 'refused' && pick.question === question.index && pick.message}
    </p>
  )
  // The form's key is the question, so the next question's form starts empty.
  if (kind === 'multi' || kind === 'text') {
    return (
      <QuestionFrame {...frame}>
        {kind === 'multi' ? (
          <MultiChoiceForm
            key={question.index}
            choices={choices}
            sent={mine && 'choices' in mine ? mine.choices : undefined}
            locked={locked}
            onSubmit={(picked) => onAnswer({ choices: picked })}
          />
        ) : (
          <TypedAnswerForm
            key={question.index}
            sent={mine && 'text' in mine ? mine.text : undefined}
            locked={locked}
            onSubmit={(text) => onAnswer({ text })}
          />
        )}
        {status}
      </QuestionFrame>
    )
  }
  return (
    <QuestionFace
      {...frame}
      choices={choices}
      chosen={mine && 'choice' in mine ? mine.choice : undefined}
      locked={locked}
      onChoose={(choice) => onAnswer({ choice })}
    >
      {status}
    </QuestionFace>
  )
}
