import { useState } from 'react'
import { MultiChoiceForm, TypedAnswerForm } from '../../../components/answer-forms'
import { QuestionFace, QuestionFrame } from '../../../components/question-face'
import { comparableText, TRUE_FALSE, type AnswerValue } from '../../../lib/question-kinds'
import type { DraftQuestion } from '../utils/deck-draft'

export interface QuestionPreviewProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly total: number
  /** The seconds a room gives a question that has none of its own. */
  readonly seconds: number
  /** The picture's URL, when the question has one. */
  readonly image?: string
}

/** Shows the choices as a phone shows them, in each kind's own way, with a placeholder for an empty choice. */
function shownChoices(q: DraftQuestion): readonly string[] {
  if (q.kind === 'truefalse') return TRUE_FALSE
  if (q.kind === 'text') return []
  return q.choices.map((c, j) => c.trim() || `Choice ${j + 1}`)
}

/** What the preview answers to a tap or a Submit: whether the deck would count that answer right. */
function verdict(q: DraftQuestion, answer: AnswerValue, choices: readonly string[]): string {
  if (q.kind === 'poll') return 'A poll: every vote counts, none is right.'
  if ('text' in answer) {
    const accepted = q.accepted.map((a) => a.trim()).filter(Boolean)
    const right = accepted.some((a) => comparableText(a) === comparableText(answer.text))
    return right
      ? 'Right: that is an accepted answer.'
      : `Not accepted: the accepted answers are ${accepted.join(', ') || 'not written yet'}.`
  }
  if ('choices' in answer) {
    const right = [...q.rights].sort((a, b) => a - b)
    const same = right.length === answer.choices.length && right.every((r, i) => answer.choices[i] === r)
    return same
      ? 'Right: exactly the choices marked right.'
      : `Not this: the right answers are ${right.map((r) => choices[r]).join(', ') || 'not marked yet'}.`
  }
  const correct = q.kind === 'truefalse' ? q.truth : q.correct
  return answer.choice === correct ? 'Right: that is the answer marked right.' : `Not this one: the right answer is ${choices[correct]}.`
}

/** Shows the question as a player's phone shows it (with the same components) and a still clock. An answer shows whether it would be right. */
export function QuestionPreview({ question, index, total, seconds, image }: QuestionPreviewProps) {
  const [tried, setTried] = useState<{ key: number; kind: string; answer: AnswerValue } | null>(null)
  const answer = tried?.key === question.key && tried.kind === question.kind ? tried.answer : undefined
  const choices = shownChoices(question)
  const own = Number(question.seconds)
  const frame = {
    label: `Question ${index + 1} as a player sees it`,
    heading: 'h3' as const,
    kicker: `${index + 1} / ${total}`,
    timer: (
      <div className="countdown" role="timer" aria-label={`${own || seconds} seconds to answer`}>
        <span className="countdown-number" aria-hidden="true">
          {own || seconds}
        </span>
      </div>
    ),
    text: question.text.trim() || 'Your question',
    image,
  }
  const tryAnswer = (value: AnswerValue) => setTried({ key: question.key, kind: question.kind, answer: value })
  const status = (
    <p className="pick-status" role="status">
      {answer && verdict(question, answer, choices)}
    </p>
  )
  return (
    <section className="deck-preview card stack" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview of question {index + 1}</h2>
      <div className="deck-preview-phone">
        {question.kind === 'multi' ? (
          <QuestionFrame {...frame}>
            <MultiChoiceForm key={question.key} choices={choices} locked={false} onSubmit={(picked) => tryAnswer({ choices: picked })} />
            {status}
          </QuestionFrame>
        ) : question.kind === 'text' ? (
          <QuestionFrame {...frame}>
            <TypedAnswerForm key={question.key} locked={false} onSubmit={(text) => tryAnswer({ text })} />
            {status}
          </QuestionFrame>
        ) : (
          <QuestionFace
            {...frame}
            choices={choices}
            chosen={answer && 'choice' in answer ? answer.choice : undefined}
            onChoose={(choice) => tryAnswer({ choice })}
          >
            {status}
          </QuestionFace>
        )}
      </div>
    </section>
  )
}
