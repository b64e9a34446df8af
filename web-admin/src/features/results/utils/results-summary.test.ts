import { describe, expect, it } from 'vitest'
import type { QuestionResult } from '../api/results-types'
import { RESULTS } from '../results-fixture'
import { answerRows, choiceLabel, formatPercent, hardestQuestion, meanMs, slowestQuestion } from './results-summary'

const question = (index: number, rightRate: number | null, times: (number | null)[]): QuestionResult => ({
  index,
  text: `Q${index}`,
  correct: 0,
  rightRate,
  answers: times.map((ms, i) => ({ playerId: `p${i}`, name: `P${i}`, choice: ms === null ? null : 0, right: false, points: 0, ms })),
})

describe('results summary', () => {
  it('takes the mean time over the answers given, none when nobody answered', () => {
    expect(meanMs(RESULTS.questions[0])).toBe(2100)
    expect(meanMs(RESULTS.questions[2])).toBe(1250)
    expect(meanMs(question(0, 0, [null, null]))).toBeUndefined()
  })

  it('names the hardest question by the lowest right rate and the slowest by the highest mean time', () => {
    expect(hardestQuestion(RESULTS.questions)?.index).toBe(2)
    expect(slowestQuestion(RESULTS.questions)?.index).toBe(1)
  })

  it('keeps the earlier question on a tie, and passes over questions without a rate or an answer', () => {
    const qs = [question(0, null, [null]), question(1, 0.5, [2000]), question(2, 0.5, [1000, 3000]), question(3, 0.9, [])]
    expect(hardestQuestion(qs)?.index).toBe(1)
    expect(slowestQuestion(qs)?.index).toBe(1)
    expect(hardestQuestion([question(0, null, [])])).toBeUndefined()
    expect(slowestQuestion([question(0, 0, [null])])).toBeUndefined()
    expect(slowestQuestion([])).toBeUndefined()
  })

  it('gives every ranked player a row, those the server listed no answer for last and without a choice', () => {
    expect(answerRows(RESULTS.questions[1], RESULTS.standings).map((a) => [a.name, a.choice ?? null, a.ms ?? null])).toEqual([
      ['Ann', 1, 4000],
      ['Bob', 0, 5000],
      ['Cy', null, null],
    ])
    expect(answerRows(RESULTS.questions[0], RESULTS.standings)).toHaveLength(3)
  })

  it('reads a choice as its letter and text, the letter alone when the results carry no texts', () => {
    expect(choiceLabel(RESULTS.questions[0], 1)).toBe('B: Mars')
    expect(choiceLabel(RESULTS.questions[2], 2)).toBe('C')
    expect([formatPercent(2 / 3), formatPercent(0), formatPercent(1), formatPercent(null)]).toEqual(['67%', '0%', '100%', '—'])
  })
})
