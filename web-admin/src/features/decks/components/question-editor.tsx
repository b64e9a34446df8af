import type { ReactNode } from 'react'
import { KIND_NAMES, QUESTION_KINDS, type QuestionKind } from '../../../lib/question-kinds'
import { DECK_RULES, edit, fieldId, type DeckDraft, type DraftQuestion } from '../utils/deck-draft'
import { AcceptedAnswers } from './accepted-answers'
import { ChoiceFields } from './choice-fields'
import { Hidden } from './hidden'

export interface QuestionEditorProps {
  readonly question: DraftQuestion
  readonly index: number
  readonly count: number
  /** The ids of the fields with a problem. Those fields tell screen readers so. */
  readonly invalid: ReadonlySet<string>
  readonly previewing: boolean
  readonly update: (change: (draft: DeckDraft) => DeckDraft) => void
  readonly onPreview: () => void
  /** The question's picture control (it needs the saved deck, which the page holds). */
  readonly picture?: ReactNode
}

/** Edits one question: its kind, its text, the fields its kind takes, its seconds and picture. It also moves, previews and deletes it. */
export function QuestionEditor({ question: q, index, count, invalid, previewing, update, onPreview, picture }: QuestionEditorProps) {
  const n = index + 1
  return (
    <li className="deck-question card">
      <fieldset className="stack">
        <legend className="deck-question-legend">Question {n}</legend>
        <div className="field-row">
          <div className="field">
            <label htmlFor={fieldId.kind(q)}>
              Kind<Hidden>{` of question ${n}`}</Hidden>
            </label>
            <select
              id={fieldId.kind(q)}
              className="input"
              value={q.kind}
              onChange={(e) => update((d) => edit.setKind(d, index, e.target.value as QuestionKind))}
            >
              {QUESTION_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_NAMES[kind]}
                </option>
              ))}
            </select>
          </div>
          <div className="field deck-seconds">
            <label htmlFor={fieldId.seconds(q)}>
              Seconds<Hidden>{` of question ${n}`}</Hidden>
            </label>
            <input
              id={fieldId.seconds(q)}
              className="input"
              type="number"
              inputMode="numeric"
              min={DECK_RULES.minSeconds}
              max={DECK_RULES.maxSeconds}
              step={1}
              placeholder="room’s"
              value={q.seconds}
              aria-invalid={invalid.has(fieldId.seconds(q)) || undefined}
              onChange={(e) => update((d) => edit.setSeconds(d, index, e.target.value))}
            />
          </div>
        </div>
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
        {picture}
        {(q.kind === 'choice' || q.kind === 'multi' || q.kind === 'poll') && (
          <ChoiceFields question={q} index={index} invalid={invalid} update={update} />
        )}
        {q.kind === 'truefalse' && (
          <fieldset className="deck-choices">
            <legend>
              Right answer<Hidden>{` of question ${n}`}</Hidden>
            </legend>
            {(['True', 'False'] as const).map((word, truth) => (
              <label key={word} className="deck-right">
                <input
                  type="radio"
                  name={`q${q.key}-truth`}
                  checked={q.truth === truth}
                  onChange={() => update((d) => edit.setTruth(d, index, truth === 0 ? 0 : 1))}
                />
                <span>
                  {word}
                  <Hidden>{` is right in question ${n}`}</Hidden>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {q.kind === 'text' && <AcceptedAnswers question={q} index={index} invalid={invalid} update={update} />}
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
