import { QUESTION_KINDS as PROTOCOL_KINDS, TRUE_FALSE_CHOICES } from '@game-rooms/client'
import { describe, expect, it } from 'vitest'
import {
  answerWords,
  choicesOf,
  comparableText,
  countsPerChoice,
  imageOf,
  kindOf,
  QUESTION_KINDS,
  rightAndWrong,
  rightAnswerWords,
  rightChoices,
  secondsOf,
  TRUE_FALSE,
} from './question-kinds'

describe('question kinds as the pages read them', () => {
  it('knows the protocol’s kinds and true-or-false choices, in its order', () => {
    expect(QUESTION_KINDS).toEqual(PROTOCOL_KINDS)
    expect(TRUE_FALSE).toEqual(TRUE_FALSE_CHOICES)
  })

  it('reads a question without a kind as a choice question, and each kind’s choices', () => {
    expect(kindOf({ text: 'Q?', choices: ['a', 'b'] })).toBe('choice')
    expect(kindOf({ kind: 'nonsense' })).toBe('choice')
    expect(kindOf({ kind: 'multi' })).toBe('multi')
    expect(choicesOf({ kind: 'truefalse' })).toEqual(['True', 'False'])
    expect(choicesOf({ kind: 'text', choices: ['leaked?'] })).toEqual([])
    expect(choicesOf({ kind: 'poll', choices: ['x', 'y'] })).toEqual(['x', 'y'])
  })

  it('takes a question’s own seconds over the room’s, and its picture when it has one', () => {
    expect(secondsOf({ seconds: 45 }, 20)).toBe(45)
    expect(secondsOf({}, 20)).toBe(20)
    expect(imageOf({ image: '/api/images/abc' })).toBe('/api/images/abc')
    expect(imageOf({ image: '' })).toBeUndefined()
  })

  it('reads every shape of a reveal’s right answer and counts', () => {
    expect([...rightChoices(2)]).toEqual([2])
    expect([...rightChoices([0, 3])]).toEqual([0, 3])
    expect([...rightChoices(null)]).toEqual([])
    expect(countsPerChoice([1, 2])).toEqual([1, 2])
    expect(countsPerChoice({ right: 2, wrong: 1 })).toBeUndefined()
    expect(rightAndWrong({ right: 2, wrong: 1 })).toEqual({ right: 2, wrong: 1 })
    expect(rightAndWrong([1, 2])).toBeUndefined()
  })

  it('says the right answer and an answer in words, per kind', () => {
    const choices = ['Venus', 'Mars', 'Earth']
    expect(rightAnswerWords('choice', 1, choices)).toBe('Mars')
    expect(rightAnswerWords('multi', [2, 0], choices)).toBe('Venus, Earth')
    expect(rightAnswerWords('poll', null, choices)).toBeUndefined()
    expect(rightAnswerWords('text', ['Paris', 'Paname'], [])).toBe('Paris or Paname')
    expect(answerWords({ choice: 0 }, choices)).toBe('Venus')
    expect(answerWords({ choices: [2, 1] }, choices)).toBe('Mars, Earth')
    expect(answerWords({ text: 'paris' }, [])).toBe('“paris”')
  })

  it('compares typed answers as the server does: accents, case and runs of spaces aside', () => {
    expect(comparableText('  Élan   Vital ')).toBe('elan vital')
    expect(comparableText('PÁRIS')).toBe(comparableText('paris'))
    expect(comparableText('Lyon')).not.toBe(comparableText('Paris'))
  })
})
