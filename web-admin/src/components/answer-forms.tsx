import { useState, type FormEvent } from 'react'

const LETTERS = 'ABCDEF'

/** The longest typed answer a player may send, in characters (docs/protocol.md section 13). */
export const TYPED_ANSWER_MAX = 40

export interface MultiChoiceFormProps {
  readonly choices: readonly string[]
  /** The choices sent, once the answer is in (or on its way). The boxes then show them and take no more changes. */
  readonly sent?: readonly number[]
  readonly locked: boolean
  readonly onSubmit: (choices: number[]) => void
}

/** Answers "every right choice" with a checkbox per choice, named by its text, and one Submit for the whole set. */
export function MultiChoiceForm({ choices, sent, locked, onSubmit }: MultiChoiceFormProps) {
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set())
  const shown = sent ? new Set(sent) : ticked
  const toggle = (i: number) =>
    setTicked((t) => {
      const next = new Set(t)
      if (!next.delete(i)) next.add(i)
      return next
    })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!locked && ticked.size > 0) onSubmit([...ticked].sort((a, b) => a - b))
  }
  return (
    <form className="answer-form" onSubmit={submit} aria-label="Your answer">
      <fieldset className="choice-grid" disabled={locked}>
        <legend className="hint">Tick every right answer, then Submit.</legend>
        {choices.map((choice, i) => (
          <label
            key={i}
            className={`choice-button check-choice c${i} ${shown.has(i) ? 'chosen' : ''} ${locked && !shown.has(i) ? 'faded' : ''}`}
          >
            <input type="checkbox" checked={shown.has(i)} onChange={() => toggle(i)} />
            <span className="choice-letter" aria-hidden="true">
              {LETTERS[i]}
            </span>
            {choice}
          </label>
        ))}
      </fieldset>
      {!locked && (
        <button type="submit" className="big-button primary" disabled={ticked.size === 0}>
          Submit
        </button>
      )}
    </form>
  )
}

export interface TypedAnswerFormProps {
  /** The text sent, once the answer is in (or on its way). */
  readonly sent?: string
  readonly locked: boolean
  readonly onSubmit: (text: string) => void
}

/** Takes a typed answer in one field with Submit. Case, accents and extra spaces do not count, because the server compares. */
export function TypedAnswerForm({ sent, locked, onSubmit }: TypedAnswerFormProps) {
  const [text, setText] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (locked) return
    const answer = text.trim().replace(/\s+/g, ' ')
    if (!answer) return setProblem('Type an answer first.')
    if ([...answer].length > TYPED_ANSWER_MAX) return setProblem(`An answer may be at most ${TYPED_ANSWER_MAX} characters.`)
    setProblem(null)
    onSubmit(answer)
  }
  return (
    <form className="answer-form stack" onSubmit={submit} noValidate>
      <label className="field">
        <span>Your answer</span>
        <input
          className="input typed-answer"
          value={sent ?? text}
          onChange={(e) => setText(e.target.value)}
          readOnly={locked}
          maxLength={TYPED_ANSWER_MAX}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          enterKeyHint="send"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'typed-problem' : undefined}
        />
      </label>
      {problem && (
        <p id="typed-problem" className="error" role="alert">
          {problem}
        </p>
      )}
      {!locked && (
        <button type="submit" className="big-button primary">
          Submit
        </button>
      )}
    </form>
  )
}
