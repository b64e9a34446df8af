import { DECK_RULES, edit, fieldId, type DeckDraft, type DraftQuestion } from '../utils/deck-draft'
import { Hidden } from './hidden'

const LETTERS = 'ABCDEF'

export interface ChoiceFieldsProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly invalid: ReadonlySet<string>
  readonly update: (change: (draft: DeckDraft) => DeckDraft) => void
}

/**
 * A question's 2 to 6 choices. A `choice` question marks its right one (radio buttons), a
 * `multi` question every right one (checkboxes), a poll none.
 */
export function ChoiceFields({ question: q, index, invalid, update }: ChoiceFieldsProps) {
  const n = index + 1
  const marks = q.kind === 'choice' ? 'radio' : q.kind === 'multi' ? 'checkbox' : undefined
  const hint = q.kind === 'choice' ? '(mark the right one)' : q.kind === 'multi' ? '(mark every right one)' : '(no right answer)'
  return (
    <fieldset
      className="deck-choices"
      id={q.kind === 'multi' ? fieldId.rights(q) : undefined}
      tabIndex={q.kind === 'multi' ? -1 : undefined}
      aria-invalid={(q.kind === 'multi' && invalid.has(fieldId.rights(q))) || undefined}
    >
      <legend>
        Choices<Hidden>{` of question ${n}`}</Hidden> <span className="hint">{hint}</span>
      </legend>
      {q.choices.map((choice, j) => (
        <div className="deck-choice" key={j}>
          {marks && (
            <label className="deck-right">
              <input
                type={marks}
                name={marks === 'radio' ? `q${q.key}-right` : undefined}
                checked={marks === 'radio' ? q.correct === j : q.rights.includes(j)}
                onChange={() => update((d) => (marks === 'radio' ? edit.markCorrect(d, index, j) : edit.toggleRight(d, index, j)))}
              />
              <span>
                Right<Hidden>{` answer: choice ${j + 1} of question ${n}`}</Hidden>
              </span>
            </label>
          )}
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
  )
}
