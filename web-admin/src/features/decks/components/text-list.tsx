import type { ReactNode } from 'react'
import { Hidden } from './hidden'

export interface TextListProps {
  readonly items: readonly string[]
  /** The fewest and the most items the list may have. Remove and Add stop there. */
  readonly min: number
  readonly max: number
  readonly maxLength: number
  /** Each item's field id, for its label and for a link from the problems' summary. */
  readonly fieldId: (j: number) => string
  /** Each field's name for screen readers: "Question 3, choice 2". */
  readonly label: (j: number) => string
  /** What Remove and Add say to screen readers after their visible word: " choice 2 of question 3", " to question 3". */
  readonly removes: (j: number) => string
  readonly adds: string
  /** The visible word of Add: "Add a choice". */
  readonly addWord: string
  readonly invalid: ReadonlySet<string>
  /** What stands before an item's field: its right-answer mark and letter. */
  readonly before?: (j: number) => ReactNode
  readonly onChange: (j: number, text: string) => void
  readonly onRemove: (j: number) => void
  readonly onAdd: () => void
}

/** Edits a question's list of short texts (its choices, its accepted answers): a field for each, with Remove, and an Add. */
export function TextList({
  items,
  min,
  max,
  maxLength,
  fieldId,
  label,
  removes,
  adds,
  addWord,
  invalid,
  before,
  onChange,
  onRemove,
  onAdd,
}: TextListProps) {
  return (
    <>
      {items.map((item, j) => (
        <div className="deck-choice" key={j}>
          {before?.(j)}
          <label className="visually-hidden" htmlFor={fieldId(j)}>
            {label(j)}
          </label>
          <input
            id={fieldId(j)}
            className="input"
            value={item}
            maxLength={maxLength}
            aria-invalid={invalid.has(fieldId(j)) || undefined}
            onChange={(e) => onChange(j, e.target.value)}
          />
          <button type="button" className="small-button" disabled={items.length <= min} onClick={() => onRemove(j)}>
            Remove<Hidden>{removes(j)}</Hidden>
          </button>
        </div>
      ))}
      <button type="button" className="small-button" disabled={items.length >= max} onClick={onAdd}>
        {addWord}
        <Hidden>{adds}</Hidden>
      </button>
    </>
  )
}
