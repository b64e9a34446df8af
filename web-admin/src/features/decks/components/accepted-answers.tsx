import { DECK_RULES, edit, fieldId, type DeckDraft, type DraftQuestion } from '../utils/deck-draft'
import { Hidden } from './hidden'

export interface AcceptedAnswersProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly invalid: ReadonlySet<string>
  readonly update: (change: (draft: DeckDraft) => DeckDraft) => void
}

/** A typed answer's 1 to 10 accepted answers; case, accents and extra spaces never count. */
export function AcceptedAnswers({ question: q, index, invalid, update }: AcceptedAnswersProps) {
  const n = index + 1
  return (
    <fieldset className="deck-choices">
      <legend>
        Accepted answers<Hidden>{` of question ${n}`}</Hidden>{' '}
        <span className="hint">(a typed answer is right when it is one of these; case, accents and extra spaces do not count)</span>
      </legend>
      {q.accepted.map((answer, j) => (
        <div className="deck-choice" key={j}>
          <label className="visually-hidden" htmlFor={fieldId.accepted(q, j)}>{`Question ${n}, accepted answer ${j + 1}`}</label>
          <input
            id={fieldId.accepted(q, j)}
            className="input"
            value={answer}
            maxLength={DECK_RULES.accepted}
            aria-invalid={invalid.has(fieldId.accepted(q, j)) || undefined}
            onChange={(e) => update((d) => edit.setAccepted(d, index, j, e.target.value))}
          />
          <button
            type="button"
            className="small-button"
            disabled={q.accepted.length <= DECK_RULES.minAccepted}
            onClick={() => update((d) => edit.removeAccepted(d, index, j))}
          >
            Remove<Hidden>{` accepted answer ${j + 1} of question ${n}`}</Hidden>
          </button>
        </div>
      ))}
      <button
        type="button"
        className="small-button"
        disabled={q.accepted.length >= DECK_RULES.maxAccepted}
        onClick={() => update((d) => edit.addAccepted(d, index))}
      >
        Add an accepted answer<Hidden>{` to question ${n}`}</Hidden>
      </button>
    </fieldset>
  )
}
