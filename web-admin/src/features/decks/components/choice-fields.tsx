import { DECK_RULES, edit, fieldId, type DeckDraft, type DraftQuestion } from '../utils/deck-draft'
import { Hidden } from './hidden'
import { TextList } from './text-list'

const LETTERS = 'ABCDEF'

export interface ChoiceFieldsProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly invalid: ReadonlySet<string>
  readonly update: (change: (draft: DeckDraft) => DeckDraft) => void
}

/**
 * Edits a question's 2 to 6 choices. A `choice` question marks its right one (radio buttons), a
 * `multi` question marks every right one (checkboxes), and a poll marks none.
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
      <TextList
        items={q.choices}
        min={DECK_RULES.minChoices}
        max={DECK_RULES.maxChoices}
        maxLength={DECK_RULES.choice}
        fieldId={(j) => fieldId.choice(q, j)}
        label={(j) => `Question ${n}, choice ${j + 1}`}
        removes={(j) => ` choice ${j + 1} of question ${n}`}
        addWord="Add a choice"
        adds={` to question ${n}`}
        invalid={invalid}
        before={(j) => (
          <>
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
          </>
        )}
        onChange={(j, text) => update((d) => edit.setChoice(d, index, j, text))}
        onRemove={(j) => update((d) => edit.removeChoice(d, index, j))}
        onAdd={() => update((d) => edit.addChoice(d, index))}
      />
    </fieldset>
  )
}
