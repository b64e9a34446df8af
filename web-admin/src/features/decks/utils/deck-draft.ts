import type { DeckBody, DeckDetails } from '../api/deck-types'

// The deck the editor holds while a host writes it: plain data and pure edits, so the page is
// only wiring. The limits are the server's (docs/protocol.md section 12); it checks them again.

export const DECK_RULES = { name: 64, maxQuestions: 200, text: 300, minChoices: 2, maxChoices: 6, choice: 120 } as const

export interface DraftQuestion {
  /** Stays with the question through moves, for React's keys and the fields' ids. */
  readonly key: number
  readonly text: string
  readonly choices: readonly string[]
  readonly correct: number
}

export interface DeckDraft {
  readonly name: string
  readonly questions: readonly DraftQuestion[]
}

/** A field that is not right yet: `field` is its element's id, for a link from the summary. */
export interface Problem {
  readonly field: string
  readonly message: string
}

let keys = 0

export function blankQuestion(): DraftQuestion {
  return { key: ++keys, text: '', choices: ['', ''], correct: 0 }
}

export function emptyDraft(): DeckDraft {
  return { name: '', questions: [blankQuestion()] }
}

/** A deck read with its edit token (so with its right answers). */
export function draftFrom(deck: DeckDetails): DeckDraft {
  return {
    name: deck.name,
    questions: deck.questions.map((q) => ({ key: ++keys, text: q.text, choices: [...q.choices], correct: q.correct ?? 0 })),
  }
}

export const fieldId = {
  name: 'deck-name',
  text: (q: DraftQuestion) => `q${q.key}-text`,
  choice: (q: DraftQuestion, choice: number) => `q${q.key}-choice${choice}`,
}

const at = (draft: DeckDraft, index: number, change: (q: DraftQuestion) => DraftQuestion): DeckDraft => ({
  ...draft,
  questions: draft.questions.map((q, i) => (i === index ? change(q) : q)),
})

export const edit = {
  rename: (draft: DeckDraft, name: string): DeckDraft => ({ ...draft, name }),
  addQuestion: (draft: DeckDraft): DeckDraft =>
    draft.questions.length >= DECK_RULES.maxQuestions ? draft : { ...draft, questions: [...draft.questions, blankQuestion()] },
  removeQuestion: (draft: DeckDraft, index: number): DeckDraft => ({ ...draft, questions: draft.questions.filter((_, i) => i !== index) }),
  /** Swaps the question with its neighbour above (-1) or below (+1); nothing past either end. */
  moveQuestion: (draft: DeckDraft, index: number, by: -1 | 1): DeckDraft => {
    const to = index + by
    if (to < 0 || to >= draft.questions.length) return draft
    const questions = [...draft.questions]
    ;[questions[index], questions[to]] = [questions[to], questions[index]]
    return { ...draft, questions }
  },
  setText: (draft: DeckDraft, index: number, text: string): DeckDraft => at(draft, index, (q) => ({ ...q, text })),
  setChoice: (draft: DeckDraft, index: number, choice: number, text: string): DeckDraft =>
    at(draft, index, (q) => ({ ...q, choices: q.choices.map((c, j) => (j === choice ? text : c)) })),
  addChoice: (draft: DeckDraft, index: number): DeckDraft =>
    at(draft, index, (q) => (q.choices.length >= DECK_RULES.maxChoices ? q : { ...q, choices: [...q.choices, ''] })),
  /** The right answer stays on the same choice; if that one goes, the first choice becomes right. */
  removeChoice: (draft: DeckDraft, index: number, choice: number): DeckDraft =>
    at(draft, index, (q) =>
      q.choices.length <= DECK_RULES.minChoices
        ? q
        : {
            ...q,
            choices: q.choices.filter((_, j) => j !== choice),
            correct: choice < q.correct ? q.correct - 1 : choice === q.correct ? 0 : q.correct,
          },
    ),
  markCorrect: (draft: DeckDraft, index: number, choice: number): DeckDraft => at(draft, index, (q) => ({ ...q, correct: choice })),
}

/** What is not right yet, in the order of the page; empty when the deck can be saved. */
export function problemsOf(draft: DeckDraft): Problem[] {
  const problems: Problem[] = []
  const name = draft.name.trim()
  if (!name) problems.push({ field: fieldId.name, message: 'The deck needs a name.' })
  else if ([...name].length > DECK_RULES.name)
    problems.push({ field: fieldId.name, message: `The deck’s name may be at most ${DECK_RULES.name} characters.` })
  if (draft.questions.length === 0) problems.push({ field: 'add-question', message: 'A deck needs at least one question.' })
  draft.questions.forEach((q, i) => {
    const n = i + 1
    const text = q.text.trim()
    if (!text) problems.push({ field: fieldId.text(q), message: `Question ${n} has no text.` })
    else if ([...text].length > DECK_RULES.text)
      problems.push({ field: fieldId.text(q), message: `Question ${n} is longer than ${DECK_RULES.text} characters.` })
    const seen = new Map<string, number>()
    q.choices.forEach((c, j) => {
      const choice = c.trim()
      if (!choice) problems.push({ field: fieldId.choice(q, j), message: `Question ${n}, choice ${j + 1} is empty.` })
      else if ([...choice].length > DECK_RULES.choice)
        problems.push({
          field: fieldId.choice(q, j),
          message: `Question ${n}, choice ${j + 1} is longer than ${DECK_RULES.choice} characters.`,
        })
      else if (seen.has(choice))
        problems.push({
          field: fieldId.choice(q, j),
          message: `Question ${n}, choice ${j + 1} is the same as choice ${seen.get(choice)! + 1}.`,
        })
      else seen.set(choice, j)
    })
  })
  return problems
}

/** The deck as the API takes it, trimmed. */
export function toBody(draft: DeckDraft): DeckBody {
  return {
    name: draft.name.trim(),
    questions: draft.questions.map((q) => ({ text: q.text.trim(), choices: q.choices.map((c) => c.trim()), correct: q.correct })),
  }
}
