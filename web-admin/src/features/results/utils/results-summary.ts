import { DASH } from '../../../lib/format'
import type { Standing } from '../../../lib/trivia-events'
import type { AnswerResult, QuestionResult } from '../api/results-types'

const LETTERS = 'ABCDEF'

/** The mean time of a question's answers, in ms; undefined when nobody answered it. */
export function meanMs(question: QuestionResult): number | undefined {
  const times = question.answers.map((a) => a.ms).filter((ms): ms is number => typeof ms === 'number' && Number.isFinite(ms))
  return times.length === 0 ? undefined : times.reduce((sum, ms) => sum + ms, 0) / times.length
}

/** The question with the lowest right-answer rate (the earlier on a tie); undefined when no question has a rate. */
export function hardestQuestion(questions: readonly QuestionResult[]): QuestionResult | undefined {
  return pick(questions, (q) => (q.rightRate === null || !Number.isFinite(q.rightRate) ? undefined : -q.rightRate))
}

/** The question whose answers took longest on average (the earlier on a tie); undefined when nobody answered any. */
export function slowestQuestion(questions: readonly QuestionResult[]): QuestionResult | undefined {
  return pick(questions, meanMs)
}

/** The question with the highest measure, the first of equals; questions without one are passed over. */
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

/**
 * One row per player of the game for a question: its answers in the server's order, then a
 * row without a choice for each ranked player the server listed no answer for.
 */
export function answerRows(question: QuestionResult, standings: readonly Standing[]): readonly AnswerResult[] {
  const listed = new Set(question.answers.map((a) => a.playerId))
  const missing = standings
    .filter((s) => !listed.has(s.playerId))
    .map((s) => ({ playerId: s.playerId, name: s.name, choice: null, right: false, points: 0, ms: null }))
  return [...question.answers, ...missing]
}

/** Whether an answer is one: a player who let the time run out has none. */
export function hasChoice(answer: AnswerResult): answer is AnswerResult & { readonly choice: number } {
  return typeof answer.choice === 'number'
}

/** A rate from 0 to 1 as a whole percentage, "67%"; a dash without one. */
export function formatPercent(rate: number | null): string {
  return rate === null || !Number.isFinite(rate) ? DASH : `${Math.round(rate * 100)}%`
}
