import { DASH } from '../../../lib/format'
import { lateFrom } from '../../../lib/late-arrival'
import { acceptedAnswers, kindOf, rightChoices, type QuestionKind } from '../../../lib/question-kinds'
import type { Standing } from '../../../lib/trivia-events'
import type { AnswerResult, QuestionResult } from '../api/results-types'

const LETTERS = 'ABCDEF'

/** The mean time of a question's answers, in ms. It is undefined when nobody answered the question. */
export function meanMs(question: QuestionResult): number | undefined {
  const times = question.answers.map((a) => a.ms).filter((ms): ms is number => typeof ms === 'number' && Number.isFinite(ms))
  return times.length === 0 ? undefined : times.reduce((sum, ms) => sum + ms, 0) / times.length
}

/** The question with the lowest right-answer rate (the earlier one on a tie), or undefined when no question has a rate. */
export function hardestQuestion(questions: readonly QuestionResult[]): QuestionResult | undefined {
  return pick(questions, (q) => (q.rightRate === null || !Number.isFinite(q.rightRate) ? undefined : -q.rightRate))
}

/** The question whose answers took longest on average (the earlier one on a tie), or undefined when nobody answered any. */
export function slowestQuestion(questions: readonly QuestionResult[]): QuestionResult | undefined {
  return pick(questions, meanMs)
}

/** The question with the highest measure, and the first of equals. Questions without a measure are passed over. */
function pick(questions: readonly QuestionResult[], measure: (q: QuestionResult) => number | undefined): QuestionResult | undefined {
  let best: { q: QuestionResult; m: number } | undefined
  for (const q of questions) {
    const m = measure(q)
    if (m !== undefined && (!best || m > best.m)) best = { q, m }
  }
  return best?.q
}

/** A choice as people read it: its letter and, when the results carry it, its text ("B: Mars"). */
export function choiceLabel(question: QuestionResult, choice: number): string {
  const letter = LETTERS[choice] ?? String(choice + 1)
  const text = question.choices?.[choice]
  return text === undefined ? letter : `${letter}: ${text}`
}

/** A question's kind as the results name it. Results from before the kinds count as `choice`. */
export function resultKind(question: QuestionResult): QuestionKind {
  return kindOf(question)
}

/** The right answer in words: a choice, every right choice, the accepted answers, or none (a poll). */
export function correctLabel(question: QuestionResult): string {
  const kind = resultKind(question)
  if (kind === 'poll') return 'None: a poll'
  if (kind === 'text') return acceptedAnswers(question.correct).join(' or ') || DASH
  const right = [...rightChoices(question.correct)].sort((a, b) => a - b)
  return right.length === 0 ? DASH : right.map((c) => choiceLabel(question, c)).join(', ')
}

/** What a player answered, in words: the choice, the choices, or the typed text in quotes. It is undefined with no answer. */
export function answerLabel(question: QuestionResult, answer: AnswerResult): string | undefined {
  const given: object = answer
  if ('text' in given && typeof given.text === 'string') return `“${given.text}”`
  if ('choices' in given && Array.isArray(given.choices))
    return (given.choices as unknown[])
      .filter((c): c is number => typeof c === 'number')
      .sort((a, b) => a - b)
      .map((c) => choiceLabel(question, c))
      .join(', ')
  return typeof answer.choice === 'number' ? choiceLabel(question, answer.choice) : undefined
}

/** How many voted for each choice of a poll, in the choices' order (letter and text, and the count). */
export function pollVotes(question: QuestionResult): readonly { readonly label: string; readonly votes: number }[] {
  const count = question.choices?.length ?? Math.max(0, ...question.answers.map((a) => (typeof a.choice === 'number' ? a.choice + 1 : 0)))
  return Array.from({ length: count }, (_, c) => ({
    label: choiceLabel(question, c),
    votes: question.answers.filter((a) => a.choice === c).length,
  }))
}

/**
 * A row of the answers' table: the answer, and whether its player could answer at all. A late
 * arrival could not answer the questions that came before the player arrived.
 */
export type AnswerRow = AnswerResult & { readonly joinedLater?: boolean }

/**
 * Returns one row per player of the game for a question. The question's answers come first, in
 * the server's order. Then comes a row without an answer for each ranked player the server listed
 * no answer for; the row of a player who joined after the question says so.
 */
export function answerRows(question: QuestionResult, standings: readonly Standing[]): readonly AnswerRow[] {
  const listed = new Set(question.answers.map((a) => a.playerId))
  const missing = standings
    .filter((s) => !listed.has(s.playerId))
    .map((s) => {
      const from = lateFrom(s)
      return {
        playerId: s.playerId,
        name: s.name,
        choice: null,
        right: false,
        points: 0,
        ms: null,
        ...(from !== undefined && from > question.index ? { joinedLater: true } : {}),
      }
    })
  return [...question.answers, ...missing]
}

/** Writes a rate from 0 to 1 as a whole percentage, such as "67%", or a dash when there is no rate. */
export function formatPercent(rate: number | null): string {
  return rate === null || !Number.isFinite(rate) ? DASH : `${Math.round(rate * 100)}%`
}
