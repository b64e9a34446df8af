import type { QuestionKind } from '@game-rooms/client'

// The question kinds of docs/protocol.md section 13 as the pages show them: what each is called,
// what a player answers, and a reveal's right answer and counts in words. The functions here take
// the wire's objects as they come. A question without `kind` is a `choice` question, as is every
// question of a deck written before section 13.

export type { QuestionKind }

/**
 * A copy of the client package's QUESTION_KINDS. That module builds the deck schemas as it loads,
 * and a page must not ship zod for a list. question-kinds.test.ts checks the copy against the
 * original.
 */
export const QUESTION_KINDS: readonly QuestionKind[] = ['choice', 'truefalse', 'multi', 'poll', 'text']

/** Each kind's name, as the editor's picker and the host screen say it. */
export const KIND_NAMES: Readonly<Record<QuestionKind, string>> = {
  choice: 'One right choice',
  truefalse: 'True or false',
  multi: 'Every right choice',
  poll: 'Poll (no right answer)',
  text: 'Typed answer',
}

/** What the host screen says under a question of each kind, so the room knows how to answer. */
export const KIND_HINTS: Readonly<Record<QuestionKind, string>> = {
  choice: 'Pick one answer',
  truefalse: 'True or false?',
  multi: 'Pick every right answer',
  poll: 'Poll: no right answer, no points',
  text: 'Type your answer on your phone',
}

/** A true-or-false question's two choices, in the order of its `correct` (0 true, 1 false). */
export const TRUE_FALSE: readonly string[] = ['True', 'False']

/** What a player sends as its answer to one question (its `room.answer` data less `question`). */
export type AnswerValue = { readonly choice: number } | { readonly choices: number[] } | { readonly text: string }

const isKind = (value: unknown): value is QuestionKind => QUESTION_KINDS.includes(value as QuestionKind)

/** A question's kind. It is `choice` when the question names none (a deck or a server from before the kinds). */
export function kindOf(question: object | undefined): QuestionKind {
  const kind = question && 'kind' in question ? question.kind : undefined
  return isKind(kind) ? kind : 'choice'
}

/** A question's own seconds when it has them, and the room's otherwise. */
export function secondsOf(question: object, roomSeconds: number): number {
  const seconds = 'seconds' in question ? question.seconds : undefined
  return typeof seconds === 'number' && seconds > 0 ? seconds : roomSeconds
}

/** The URL of a question's picture, when it has one. */
export function imageOf(question: object | undefined): string | undefined {
  const image = question && 'image' in question ? question.image : undefined
  return typeof image === 'string' && image !== '' ? image : undefined
}

/** A question's choices as the phone and the host screen show them. A typed answer has none. */
export function choicesOf(question: object | undefined): readonly string[] {
  if (kindOf(question) === 'text') return []
  const choices = question && 'choices' in question ? question.choices : undefined
  if (Array.isArray(choices) && choices.every((c) => typeof c === 'string')) return choices
  return kindOf(question) === 'truefalse' ? TRUE_FALSE : []
}

/** The choices a reveal marks right: one index, several, or none (a poll, a typed answer). */
export function rightChoices(correct: unknown): ReadonlySet<number> {
  if (typeof correct === 'number') return new Set([correct])
  if (Array.isArray(correct)) return new Set(correct.filter((c): c is number => typeof c === 'number'))
  return new Set()
}

/** A typed answer's accepted answers, as a reveal gives them. */
export function acceptedAnswers(correct: unknown): readonly string[] {
  return Array.isArray(correct) ? correct.filter((c): c is string => typeof c === 'string') : []
}

/** A reveal's counts per choice. It is undefined for a typed answer, whose counts are `{right, wrong}`. */
export function countsPerChoice(counts: unknown): readonly number[] | undefined {
  return Array.isArray(counts) ? counts.filter((c): c is number => typeof c === 'number') : undefined
}

/** A typed answer's reveal counts: how many typed an accepted answer and how many did not. */
export function rightAndWrong(counts: unknown): { readonly right: number; readonly wrong: number } | undefined {
  if (typeof counts !== 'object' || counts === null || Array.isArray(counts)) return undefined
  const { right, wrong } = counts as { right?: unknown; wrong?: unknown }
  return typeof right === 'number' && typeof wrong === 'number' ? { right, wrong } : undefined
}

/** A reveal's kind, read from its own shape, for a page that was reloaded during the reveal and so did not see its question open. */
export function kindOfReveal(reveal: { readonly correct: unknown; readonly counts: unknown }): QuestionKind {
  if (rightAndWrong(reveal.counts) || acceptedAnswers(reveal.correct).length > 0) return 'text'
  if (reveal.correct === null || reveal.correct === undefined) return 'poll'
  return Array.isArray(reveal.correct) ? 'multi' : 'choice'
}

/** The right answer in words: "Mars", "Mars, Venus", or the accepted answers. It is undefined for a poll. */
export function rightAnswerWords(kind: QuestionKind, correct: unknown, choices: readonly string[]): string | undefined {
  if (kind === 'poll') return undefined
  if (kind === 'text') return acceptedAnswers(correct).join(' or ') || undefined
  const right = [...rightChoices(correct)].sort((a, b) => a - b)
  return right.length === 0 ? undefined : right.map((i) => choices[i] ?? `choice ${i + 1}`).join(', ')
}

/** An answer in words: the choice's text, the choices' texts, or what was typed, in quotes. */
export function answerWords(answer: AnswerValue, choices: readonly string[]): string {
  if ('text' in answer) return `“${answer.text}”`
  if ('choices' in answer)
    return [...answer.choices]
      .sort((a, b) => a - b)
      .map((i) => choices[i] ?? `choice ${i + 1}`)
      .join(', ')
  return choices[answer.choice] ?? `choice ${answer.choice + 1}`
}

/**
 * A typed answer as the server compares it (section 13): in Unicode NFKD, with accents removed, in
 * lower case, and with each run of spaces as one. The editor uses it to find two accepted answers
 * that are the same.
 */
export function comparableText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
}
