import { DECK_RULES, edit, fieldId } from '../utils/deck-draft'
import type { ChoiceFieldsProps } from './choice-fields'
import { Hidden } from './hidden'
import { TextList } from './text-list'

/** The same props as the choices take: the question, its place, the fields with a problem, and the draft's update. */
export type AcceptedAnswersProps = ChoiceFieldsProps

/** Edits a typed answer's 1 to 10 accepted answers. Case, accents and extra spaces never count. */
export function AcceptedAnswers({ question: q, index, invalid, update }: AcceptedAnswersProps) {
  const n = index + 1
  return (
    <fieldset className="deck-choices">
      <legend>
        Accepted answers<Hidden>{` of question ${n}`}</Hidden>{' '}
        <span className="hint">(a typed answer is right when it is one of these; case, accents and extra spaces do not count)</span>
      </legend>
      <TextList
        items={q.accepted}
        min={DECK_RULES.minAccepted}
        max={DECK_RULES.maxAccepted}
        maxLength={DECK_RULES.accepted}
        fieldId={(j) => fieldId.accepted(q, j)}
        label={(j) => `Question ${n}, accepted answer ${j + 1}`}
        removes={(j) => ` accepted answer ${j + 1} of question ${n}`}
        addWord="Add an accepted answer"
        adds={` to question ${n}`}
        invalid={invalid}
        onChange={(j, text) => update((d) => edit.setAccepted(d, index, j, text))}
        onRemove={(j) => update((d) => edit.removeAccepted(d, index, j))}
        onAdd={() => update((d) => edit.addAccepted(d, index))}
      />
    </fieldset>
  )
}
