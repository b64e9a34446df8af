import { useState } from 'react'
import { QuestionFace } from '../../../components/question-face'
import type { DraftQuestion } from '../utils/deck-draft'

export interface QuestionPreviewProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly total: number
  readonly seconds: number
}

/** The question as a player's phone shows it (the same component), with a still clock; a tap says whether it was right. */
export function QuestionPreview({ question, index, total, seconds }: QuestionPreviewProps) {
  const [tapped, setTapped] = useState<{ key: number; choice: number } | null>(null)
  const chosen = tapped?.key === question.key ? tapped.choice : undefined
  const right = question.choices[question.correct]?.trim() || `choice ${question.correct + 1}`
  return (
    <section className="deck-preview card stack" aria-labelledby="preview-title">
      <h2 id="preview-title">Preview of question {index + 1}</h2>
      <div className="deck-preview-phone">
        <QuestionFace
          label={`Question ${index + 1} as a player sees it`}
          heading="h3"
          kicker={`${index + 1} / ${total}`}
          timer={
            <div className="countdown" role="timer" aria-label={`${seconds} seconds to answer`}>
              <span className="countdown-number" aria-hidden="true">
                {seconds}
              </span>
            </div>
          }
          text={question.text.trim() || 'Your question'}
          choices={question.choices.map((c, j) => c.trim() || `Choice ${j + 1}`)}
          chosen={chosen}
          onChoose={(choice) => setTapped({ key: question.key, choice })}
        >
          <p className="pick-status" role="status">
            {chosen !== undefined &&
              (chosen === question.correct ? 'Right: that is the answer marked right.' : `Not this one: the right answer is ${right}.`)}
          </p>
        </QuestionFace>
      </div>
    </section>
  )
}
