import { DECK_RULES, edit, fieldId, type DeckDraft, type DraftQuestion } from '../utils/deck-draft'

export interface QuestionEditorProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly count: number
  /** The ids of fields with a problem: they say so to screen readers. */
  readonly invalid: ReadonlySet<string>
  readonly previewing: boolean
  readonly update: (change: (draft: DeckDraft) => DeckDraft) => void
  readonly onPreview: () => void
}

const LETTERS = 'ABCDEF'

/** Words for screen readers only: a button's visible "Move up" is read "Move up question 3". */
function Hidden({ children }: { readonly children: string }) {
  return <span className="visually-hidden">{children}</span>
}

/** One question: its text, 2 to 6 choices with the right one marked, and moving, previewing, deleting it. */
export function QuestionEditor({ question: q, index, count, invalid, previewing, update, onPreview }: QuestionEditorProps) {
  const n = index + 1
  return (
    <li className="deck-question card">
      <fieldset className="stack">
        <legend className="deck-question-legend">Question {n}</legend>
        {/* Not wrapped in its label: a label's name would take in the text typed. */}
        <div className="field">
          <label htmlFor={fieldId.text(q)}>
            Text<Hidden>{` of question ${n}`}</Hidden>
          </label>
          <textarea
            id={fieldId.text(q)}
            className="input deck-text"
            rows={2}
            maxLength={DECK_RULES.text}
            value={q.text}
            aria-invalid={invalid.has(fieldId.text(q)) || undefined}
            onChange={(e) => update((d) => edit.setText(d, index, e.target.value))}
          />
        </div>
        <fieldset className="deck-choices">
          <legend>
            Choices<Hidden>{` of question ${n}`}</Hidden> <span className="hint">(mark the right one)</span>
          </legend>
          {q.choices.map((choice, j) => (
            <div className="deck-choice" key={j}>
              <label className="deck-right">
                <input
                  type="radio"
                  name={`q${q.key}-right`}
                  checked={q.correct === j}
                  onChange={() => update((d) => edit.markCorrect(d, index, j))}
                />
                <span>
                  Right<Hidden>{` answer: choice ${j + 1} of question ${n}`}</Hidden>
                </span>
              </label>
              <span className={`choice-letter c${j}`} aria-hidden="true">
                {LETTERS[j]}
              </span>
              <label className="visually-hidden" htmlFor={fieldId.choice(q, j)}>{`Question ${n}, choice ${j + 1}`}</label>
              <input
                id={fieldId.choice(q, j)}
                className="input"
                value={choice}
                maxLength={DECK_RULES.choice}
                aria-invalid={invalid.has(fieldId.choice(q, j)) || undefined}
                onChange={(e) => update((d) => edit.setChoice(d, index, j, e.target.value))}
              />
              <button
                type="button"
                className="small-button"
                disabled={q.choices.length <= DECK_RULES.minChoices}
                onClick={() => update((d) => edit.removeChoice(d, index, j))}
              >
                Remove<Hidden>{` choice ${j + 1} of question ${n}`}</Hidden>
              </button>
            </div>
          ))}
          <button
            type="button"
            className="small-button"
            disabled={q.choices.length >= DECK_RULES.maxChoices}
            onClick={() => update((d) => edit.addChoice(d, index))}
          >
            Add a choice<Hidden>{` to question ${n}`}</Hidden>
          </button>
        </fieldset>
        <div className="deck-question-actions">
          <button
            type="button"
            className="small-button"
            disabled={index === 0}
            onClick={() => update((d) => edit.moveQuestion(d, index, -1))}
          >
            Move up<Hidden>{` question ${n}`}</Hidden>
          </button>
          <button
            type="button"
            className="small-button"
            disabled={index === count - 1}
            onClick={() => update((d) => edit.moveQuestion(d, index, 1))}
          >
            Move down<Hidden>{` question ${n}`}</Hidden>
          </button>
          <button type="button" className="small-button" aria-pressed={previewing} onClick={onPreview}>
            Preview<Hidden>{` question ${n}`}</Hidden>
          </button>
          <button
            type="button"
            className="small-button danger"
            disabled={count === 1}
            onClick={() => update((d) => edit.removeQuestion(d, index))}
          >
            Delete<Hidden>{` question ${n}`}</Hidden>
          </button>
        </div>
      </fieldset>
    </li>
  )
}
