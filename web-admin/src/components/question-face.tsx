import type { ReactNode } from 'react'
import { QuestionPicture } from './question-picture'

export interface QuestionFrameProps {
  /** Where the question is in the game, such as "3 / 10". */
  readonly kicker: string
  /** The countdown in a game; a still clock in the deck editor's preview. */
  readonly timer: ReactNode
  readonly text: string
  /** The picture's URL, when the question has one. */
  readonly image?: string
  /** The answer's controls, and below them what became of the answer. */
  readonly children?: ReactNode
  readonly label?: string
  /** The text's heading level. On a phone it is the page's own heading; in a preview it sits below the editor's title. */
  readonly heading?: 'h1' | 'h2' | 'h3'
}

/** Shows a question as a player's phone shows it: where it is in the game, its clock, its text and picture, then the answer. */
export function QuestionFrame({ kicker, timer, text, image, children, label = 'Question', heading: Heading = 'h1' }: QuestionFrameProps) {
  return (
    <section className="play-question" aria-label={label}>
      <div className="stage-head">
        <span className="stage-kicker">{kicker}</span>
        {timer}
      </div>
      <Heading className="play-question-text">{text}</Heading>
      {image && <QuestionPicture src={image} className="play-picture" />}
      {children}
    </section>
  )
}

export interface QuestionFaceProps extends QuestionFrameProps {
  readonly choices: readonly string[]
  /** The choice this player picked, if any. */
  readonly chosen?: number
  /** Once an answer is in, the other choices fade and no longer take clicks. */
  readonly locked?: boolean
  readonly onChoose?: (choice: number) => void
}

const LETTERS = 'ABCDEF'

/** Shows the choices as big buttons named by their text, for a question answered by one choice (one right, true or false, a poll). */
export function QuestionFace({ choices, chosen, locked = false, onChoose, children, ...frame }: QuestionFaceProps) {
  return (
    <QuestionFrame {...frame}>
      <div className="choice-grid">
        {choices.map((choice, i) => (
          <button
            key={i}
            type="button"
            className={`choice-button c${i} ${chosen === i ? 'chosen' : ''} ${locked && chosen !== i ? 'faded' : ''}`}
            aria-pressed={chosen === i}
            aria-disabled={locked || undefined}
            onClick={() => !locked && onChoose?.(i)}
          >
            <span className="choice-letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            {choice}
          </button>
        ))}
      </div>
      {children}
    </QuestionFrame>
  )
}
