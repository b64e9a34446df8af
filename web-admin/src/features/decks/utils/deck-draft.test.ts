import { describe, expect, it } from 'vitest'
import { blankQuestion, DECK_RULES, edit, emptyDraft, problemsOf, toBody, type DeckDraft } from './deck-draft'

const deck = (...questions: [string, string[], number][]): DeckDraft => ({
  name: 'Deck',
  questions: questions.map(([text, choices, correct]) => ({ ...blankQuestion(), text, choices, correct })),
})
const texts = (d: DeckDraft) => d.questions.map((q) => q.text)

describe('deck draft edits', () => {
  it('moves a question up and down, and not past either end', () => {
    const d = deck(['a', ['1', '2'], 0], ['b', ['1', '2'], 0], ['c', ['1', '2'], 0])
    expect(texts(edit.moveQuestion(d, 2, -1))).toEqual(['a', 'c', 'b'])
    expect(texts(edit.moveQuestion(d, 0, 1))).toEqual(['b', 'a', 'c'])
    expect(edit.moveQuestion(d, 0, -1)).toBe(d)
    expect(edit.moveQuestion(d, 2, 1)).toBe(d)
    // A moved question keeps its key, so its fields keep their ids and focus.
    expect(edit.moveQuestion(d, 2, -1).questions[1].key).toBe(d.questions[2].key)
  })

  it('keeps 2 to 6 choices, and the right answer on the same choice when another goes', () => {
    let d = deck(['q', ['a', 'b', 'c'], 2])
    d = edit.removeChoice(d, 0, 0)
    expect(d.questions[0]).toMatchObject({ choices: ['b', 'c'], correct: 1 })
    expect(edit.removeChoice(d, 0, 1).questions[0].choices).toEqual(['b', 'c'])
    for (let i = 0; i < 10; i++) d = edit.addChoice(d, 0)
    expect(d.questions[0].choices).toHaveLength(DECK_RULES.maxChoices)
    // The right one removed: the first choice is right now.
    expect(edit.removeChoice(deck(['q', ['a', 'b', 'c'], 1]), 0, 1).questions[0]).toMatchObject({ choices: ['a', 'c'], correct: 0 })
  })

  it('adds and removes questions, up to the limit', () => {
    let d = emptyDraft()
    expect(d.questions).toHaveLength(1)
    d = edit.removeQuestion(edit.addQuestion(d), 0)
    expect(d.questions).toHaveLength(1)
    for (let i = 0; i < 300; i++) d = edit.addQuestion(d)
    expect(d.questions).toHaveLength(DECK_RULES.maxQuestions)
  })
})

describe(problemsOf.name, () => {
  it('names each field that is not right yet, in page order, by its element id', () => {
    const d = deck(['', ['a', ''], 0], ['ok?', ['same', ' same '], 1])
    const q = d.questions
    expect(problemsOf({ ...d, name: ' ' })).toEqual([
      { field: 'deck-name', message: 'The deck needs a name.' },
      { field: `q${q[0].key}-text`, message: 'Question 1 has no text.' },
      { field: `q${q[0].key}-choice1`, message: 'Question 1, choice 2 is empty.' },
      { field: `q${q[1].key}-choice1`, message: 'Question 2, choice 2 is the same as choice 1.' },
    ])
    expect(problemsOf(deck(['x'.repeat(301), ['a', 'b'], 0]))[0].message).toMatch(/longer than 300/)
    expect(problemsOf({ name: 'N', questions: [] })).toEqual([{ field: 'add-question', message: 'A deck needs at least one question.' }])
    expect(problemsOf(deck(['fine?', ['yes', 'no'], 1]))).toEqual([])
  })

  it('gives the API the deck trimmed, right answers 0-based', () => {
    expect(toBody({ name: ' N ', questions: deck([' Q? ', [' a', 'b '], 1]).questions })).toEqual({
      name: 'N',
      questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 1 }],
    })
  })
})
