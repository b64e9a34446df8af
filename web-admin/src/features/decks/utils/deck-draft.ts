import { comparableText, kindOf, type QuestionKind } from '../../../lib/question-kinds'
import type { DeckBody, DeckDetails } from '../api/deck-types'

// This is the deck the editor holds while a host writes it. It is plain data with pure edits, so
// the page is only wiring. The limits are the server's (docs/protocol.md sections 12 and 13), and
// the server checks them again.

// These are the client package's DECK_LIMITS, copied for the same reason as QUESTION_KINDS.
// deck-draft.test.ts checks the copy against the original in the same way.
export const DECK_RULES = {
  name: 64,
  maxQuestions: 200,
  text: 300,
  minChoices: 2,
  maxChoices: 6,
  choice: 120,
  minAccepted: 1,
  maxAccepted: 10,
  accepted: 40,
  minSeconds: 5,
  maxSeconds: 240,
} as const

/**
 * One question as it is being written. Every kind's fields are kept, so that a host who tries
 * another kind and comes back finds what was written; the API gets only the chosen kind's.
 */
export interface DraftQuestion {
  /** Stays with the question when it moves, for React's keys and the fields' ids. */
  readonly key: number
  readonly kind: QuestionKind
  readonly text: string
  /** The choices of a `choice`, `multi` or `poll` question. */
  readonly choices: readonly string[]
  /** The right choice of a `choice` question. */
  readonly correct: number
  /** The right choices of a `multi` question. */
  readonly rights: readonly number[]
  /** A `truefalse` question's answer: 0 true, 1 false. */
  readonly truth: 0 | 1
  /** A `text` question's accepted answers. */
  readonly accepted: readonly string[]
  /** The question's own seconds as typed. Empty means the question takes the room's. */
  readonly seconds: string
  /** The question's picture (an image id of this deck), if any. */
  readonly image?: string
}

export interface DeckDraft {
  readonly name: string
  readonly questions: readonly DraftQuestion[]
}

/** A field that is not right yet. `field` is its element's id, for a link from the summary. */
export interface Problem {
  readonly field: string
  readonly message: string
}

let keys = 0

export function blankQuestion(): DraftQuestion {
  return { key: ++keys, kind: 'choice', text: '', choices: ['', ''], correct: 0, rights: [], truth: 0, accepted: [''], seconds: '' }
}

export function emptyDraft(): DeckDraft {
  return { name: '', questions: [blankQuestion()] }
}

type StoredQuestion = DeckDetails['questions'][number]

/** A deck read with its edit token, and so with its right answers. */
export function draftFrom(deck: DeckDetails): DeckDraft {
  return { name: deck.name, questions: deck.questions.map(draftQuestionFrom) }
}

function draftQuestionFrom(q: StoredQuestion): DraftQuestion {
  const stored: object = q
  const kind = kindOf(stored)
  const correct = 'correct' in stored ? stored.correct : undefined
  const choices = 'choices' in stored && Array.isArray(stored.choices) ? stored.choices.map(String) : []
  const accepted = 'accepted' in stored && Array.isArray(stored.accepted) ? stored.accepted.map(String) : []
  const seconds = 'seconds' in stored && typeof stored.seconds === 'number' ? String(stored.seconds) : ''
  const image = 'image' in stored && typeof stored.image === 'string' ? stored.image : undefined
  const blank = blankQuestion()
  return {
    ...blank,
    kind,
    text: q.text,
    choices: kind === 'truefalse' || kind === 'text' || choices.length < DECK_RULES.minChoices ? blank.choices : choices,
    correct: kind === 'choice' && typeof correct === 'number' ? correct : 0,
    rights: kind === 'multi' && Array.isArray(correct) ? correct.filter((c) => typeof c === 'number') : [],
    truth: kind === 'truefalse' && correct === 1 ? 1 : 0,
    accepted: accepted.length > 0 ? accepted : blank.accepted,
    seconds,
    ...(image ? { image } : {}),
  }
}

/** Whether a deck read from the server holds every right answer (it was read with its edit token). */
export function hasRightAnswers(deck: DeckDetails): boolean {
  return deck.questions.every((q) => {
    const stored: object = q
    const kind = kindOf(stored)
    if (kind === 'poll') return true
    if (kind === 'text') return 'accepted' in stored && Array.isArray(stored.accepted)
    return 'correct' in stored && stored.correct !== undefined && stored.correct !== null
  })
}

export const fieldId = {
  name: 'deck-name',
  text: (q: DraftQuestion) => `q${q.key}-text`,
  kind: (q: DraftQuestion) => `q${q.key}-kind`,
  choice: (q: DraftQuestion, choice: number) => `q${q.key}-choice${choice}`,
  rights: (q: DraftQuestion) => `q${q.key}-rights`,
  accepted: (q: DraftQuestion, answer: number) => `q${q.key}-accepted${answer}`,
  seconds: (q: DraftQuestion) => `q${q.key}-seconds`,
}

const at = (draft: DeckDraft, index: number, change: (q: DraftQuestion) => DraftQuestion): DeckDraft => ({
  ...draft,
  questions: draft.questions.map((q, i) => (i === index ? change(q) : q)),
})

/** Returns a choice's index after choice `removed` is gone. The choices after it move up by one. */
const shifted = (choice: number, removed: number) => (choice > removed ? choice - 1 : choice)

export const edit = {
  rename: (draft: DeckDraft, name: string): DeckDraft => ({ ...draft, name }),
  addQuestion: (draft: DeckDraft): DeckDraft =>
    draft.questions.length >= DECK_RULES.maxQuestions ? draft : { ...draft, questions: [...draft.questions, blankQuestion()] },
  removeQuestion: (draft: DeckDraft, index: number): DeckDraft => ({ ...draft, questions: draft.questions.filter((_, i) => i !== index) }),
  /** Swaps the question with its neighbour above (-1) or below (+1). It does nothing past either end. */
  moveQuestion: (draft: DeckDraft, index: number, by: -1 | 1): DeckDraft => {
    const to = index + by
    if (to < 0 || to >= draft.questions.length) return draft
    const questions = [...draft.questions]
    ;[questions[index], questions[to]] = [questions[to], questions[index]]
    return { ...draft, questions }
  },
  setKind: (draft: DeckDraft, index: number, kind: QuestionKind): DeckDraft => at(draft, index, (q) => ({ ...q, kind })),
  setText: (draft: DeckDraft, index: number, text: string): DeckDraft => at(draft, index, (q) => ({ ...q, text })),
  setChoice: (draft: DeckDraft, index: number, choice: number, text: string): DeckDraft =>
    at(draft, index, (q) => ({ ...q, choices: q.choices.map((c, j) => (j === choice ? text : c)) })),
  addChoice: (draft: DeckDraft, index: number): DeckDraft =>
    at(draft, index, (q) => (q.choices.length >= DECK_RULES.maxChoices ? q : { ...q, choices: [...q.choices, ''] })),
  /** Removes a choice. The right answers stay on the same choices; if the one right choice goes, the first choice becomes right. */
  removeChoice: (draft: DeckDraft, index: number, choice: number): DeckDraft =>
    at(draft, index, (q) =>
      q.choices.length <= DECK_RULES.minChoices
        ? q
        : {
            ...q,
            choices: q.choices.filter((_, j) => j !== choice),
            correct: choice === q.correct ? 0 : shifted(q.correct, choice),
            rights: q.rights.filter((r) => r !== choice).map((r) => shifted(r, choice)),
          },
    ),
  markCorrect: (draft: DeckDraft, index: number, choice: number): DeckDraft => at(draft, index, (q) => ({ ...q, correct: choice })),
  /** Marks a choice of a `multi` question right, or no longer right. */
  toggleRight: (draft: DeckDraft, index: number, choice: number): DeckDraft =>
    at(draft, index, (q) => ({
      ...q,
      rights: q.rights.includes(choice) ? q.rights.filter((r) => r !== choice) : [...q.rights, choice].sort((a, b) => a - b),
    })),
  setTruth: (draft: DeckDraft, index: number, truth: 0 | 1): DeckDraft => at(draft, index, (q) => ({ ...q, truth })),
  setAccepted: (draft: DeckDraft, index: number, answer: number, text: string): DeckDraft =>
    at(draft, index, (q) => ({ ...q, accepted: q.accepted.map((a, j) => (j === answer ? text : a)) })),
  addAccepted: (draft: DeckDraft, index: number): DeckDraft =>
    at(draft, index, (q) => (q.accepted.length >= DECK_RULES.maxAccepted ? q : { ...q, accepted: [...q.accepted, ''] })),
  removeAccepted: (draft: DeckDraft, index: number, answer: number): DeckDraft =>
    at(draft, index, (q) =>
      q.accepted.length <= DECK_RULES.minAccepted ? q : { ...q, accepted: q.accepted.filter((_, j) => j !== answer) },
    ),
  setSeconds: (draft: DeckDraft, index: number, seconds: string): DeckDraft => at(draft, index, (q) => ({ ...q, seconds })),
  /** Gives the question a picture (an image id), or takes it away (undefined). */
  setImage: (draft: DeckDraft, index: number, image: string | undefined): DeckDraft =>
    at(draft, index, (q) => {
      const changed: { -readonly [K in keyof DraftQuestion]: DraftQuestion[K] } = { ...q }
      if (image) changed.image = image
      else delete changed.image
      return changed
    }),
}

const chars = (text: string) => [...text].length

/**
 * Finds the problems of question `n`'s list of short texts (its choices, its accepted answers). A
 * text is a problem when it is empty, too long, or the same as an earlier one once `same` has read
 * both.
 */
function listProblems(
  n: number,
  what: string,
  items: readonly string[],
  max: number,
  field: (j: number) => string,
  same: (text: string) => string,
): Problem[] {
  const problems: Problem[] = []
  const seen = new Map<string, number>()
  items.forEach((item, j) => {
    const text = item.trim()
    const key = same(text)
    const name = `Question ${n}, ${what} ${j + 1}`
    if (!text) problems.push({ field: field(j), message: `${name} is empty.` })
    else if (chars(text) > max) problems.push({ field: field(j), message: `${name} is longer than ${max} characters.` })
    else if (seen.has(key)) problems.push({ field: field(j), message: `${name} is the same as ${what} ${seen.get(key)! + 1}.` })
    else seen.set(key, j)
  })
  return problems
}

/** Lists what is not right yet, in the order of the page. The list is empty when the deck can be saved. */
export function problemsOf(draft: DeckDraft): Problem[] {
  const problems: Problem[] = []
  const name = draft.name.trim()
  if (!name) problems.push({ field: fieldId.name, message: 'The deck needs a name.' })
  else if (chars(name) > DECK_RULES.name)
    problems.push({ field: fieldId.name, message: `The deck’s name may be at most ${DECK_RULES.name} characters.` })
  if (draft.questions.length === 0) problems.push({ field: 'add-question', message: 'A deck needs at least one question.' })
  draft.questions.forEach((q, i) => {
    const n = i + 1
    const text = q.text.trim()
    if (!text) problems.push({ field: fieldId.text(q), message: `Question ${n} has no text.` })
    else if (chars(text) > DECK_RULES.text)
      problems.push({ field: fieldId.text(q), message: `Question ${n} is longer than ${DECK_RULES.text} characters.` })
    if (q.kind === 'choice' || q.kind === 'multi' || q.kind === 'poll') {
      problems.push(
        ...listProblems(
          n,
          'choice',
          q.choices,
          DECK_RULES.choice,
          (j) => fieldId.choice(q, j),
          (t) => t,
        ),
      )
    }
    if (q.kind === 'multi' && q.rights.length === 0)
      problems.push({ field: fieldId.rights(q), message: `Question ${n} needs at least one choice marked right.` })
    if (q.kind === 'text') {
      // Two answers the server would read as one (case, accents and spaces aside) are one too many.
      problems.push(...listProblems(n, 'accepted answer', q.accepted, DECK_RULES.accepted, (j) => fieldId.accepted(q, j), comparableText))
    }
    const seconds = q.seconds.trim()
    if (seconds && !(/^\d+$/.test(seconds) && Number(seconds) >= DECK_RULES.minSeconds && Number(seconds) <= DECK_RULES.maxSeconds))
      problems.push({
        field: fieldId.seconds(q),
        message: `Question ${n}: seconds must be a whole number from ${DECK_RULES.minSeconds} to ${DECK_RULES.maxSeconds}, or empty for the room’s.`,
      })
  })
  return problems
}

type BodyQuestion = DeckBody['questions'][number]

/**
 * Returns the deck as the API takes it, trimmed: each question keeps only its kind's fields. A
 * `choice` question is sent as it was before the kinds.
 */
export function toBody(draft: DeckDraft): DeckBody {
  return { name: draft.name.trim(), questions: draft.questions.map(bodyQuestion) }
}

function bodyQuestion(q: DraftQuestion): BodyQuestion {
  const text = q.text.trim()
  const choices = q.choices.map((c) => c.trim())
  const extras = { ...(q.seconds.trim() ? { seconds: Number(q.seconds.trim()) } : {}), ...(q.image ? { image: q.image } : {}) }
  switch (q.kind) {
    case 'choice':
      return { text, choices, correct: q.correct, ...extras }
    case 'truefalse':
      return { kind: 'truefalse', text, correct: q.truth, ...extras }
    case 'multi':
      return { kind: 'multi', text, choices, correct: [...q.rights], ...extras }
    case 'poll':
      return { kind: 'poll', text, choices, ...extras }
    case 'text':
      return { kind: 'text', text, accepted: q.accepted.map((a) => a.trim().replace(/\s+/g, ' ')), ...extras }
  }
}
