import { DECK_LIMITS } from '@game-rooms/client'
import { describe, expect, it } from 'vitest'
import { blankQuestion, DECK_RULES, draftFrom, edit, emptyDraft, problemsOf, toBody, type DeckDraft } from './deck-draft'

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
    // The right choice is removed, so the first choice is now the right one.
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

describe('question kinds in the draft', () => {
  it('keeps the server’s limits', () => {
    // The editor always has a question, so it needs no minimum of them.
    const { minQuestions: _, ...limits } = DECK_LIMITS
    expect(DECK_RULES).toEqual({ ...limits, minAccepted: 1 })
  })

  const one = (change: (d: DeckDraft) => DeckDraft) => change(deck(['Q?', ['a', 'b', 'c'], 0])).questions[0]

  it('gives the API only the chosen kind’s fields, and keeps the others for a switch back', () => {
    let d = deck(['Which are primes?', ['2', '3', '4'], 2])
    d = edit.setKind(d, 0, 'multi')
    d = edit.toggleRight(edit.toggleRight(d, 0, 1), 0, 0)
    expect(toBody(d).questions).toEqual([{ kind: 'multi', text: 'Which are primes?', choices: ['2', '3', '4'], correct: [0, 1] }])
    // After the switch back to `choice` (one right choice), the choice marked right before is still the right one.
    expect(toBody(edit.setKind(d, 0, 'choice')).questions[0]).toEqual({ text: 'Which are primes?', choices: ['2', '3', '4'], correct: 2 })
    expect(toBody(edit.setKind(d, 0, 'poll')).questions[0]).toEqual({ kind: 'poll', text: 'Which are primes?', choices: ['2', '3', '4'] })
    expect(toBody(edit.setTruth(edit.setKind(d, 0, 'truefalse'), 0, 1)).questions[0]).toEqual({
      kind: 'truefalse',
      text: 'Which are primes?',
      correct: 1,
    })
    const typed = edit.setAccepted(edit.addAccepted(edit.setKind(d, 0, 'text'), 0), 0, 1, ' New   York ')
    expect(toBody(edit.setAccepted(typed, 0, 0, 'NYC')).questions[0]).toEqual({
      kind: 'text',
      text: 'Which are primes?',
      accepted: ['NYC', 'New York'],
    })
  })

  it('sends a question’s own seconds and picture, and none when they are empty', () => {
    const d = edit.setImage(edit.setSeconds(deck(['Q?', ['a', 'b'], 0]), 0, '45'), 0, 'img-1')
    expect(toBody(d).questions[0]).toEqual({ text: 'Q?', choices: ['a', 'b'], correct: 0, seconds: 45, image: 'img-1' })
    expect(toBody(edit.setImage(edit.setSeconds(d, 0, ' '), 0, undefined)).questions[0]).toEqual({
      text: 'Q?',
      choices: ['a', 'b'],
      correct: 0,
    })
  })

  it('keeps a multi question’s right choices on the same choices when one goes', () => {
    const q = one((d) => edit.removeChoice(edit.toggleRight(edit.toggleRight(edit.setKind(d, 0, 'multi'), 0, 0), 0, 2), 0, 0))
    expect(q).toMatchObject({ choices: ['b', 'c'], rights: [1] })
  })

  it('names what each kind still needs: a right choice, accepted answers that differ, seconds in range', () => {
    const d = edit.setKind(deck(['Q?', ['a', 'b'], 0]), 0, 'multi')
    const q = d.questions[0]
    expect(problemsOf(d)).toEqual([{ field: `q${q.key}-rights`, message: 'Question 1 needs at least one choice marked right.' }])
    const typed = edit.setAccepted(edit.addAccepted(edit.setAccepted(edit.setKind(d, 0, 'text'), 0, 0, 'Élan'), 0), 0, 1, 'elan ')
    expect(problemsOf(typed)).toEqual([
      { field: `q${q.key}-accepted1`, message: 'Question 1, accepted answer 2 is the same as accepted answer 1.' },
    ])
    expect(problemsOf(edit.setKind(deck(['Q?', ['', ''], 0]), 0, 'truefalse'))).toEqual([])
    for (const seconds of ['4', '241', '7.5', 'ten'])
      expect(problemsOf(edit.setSeconds(deck(['Q?', ['a', 'b'], 0]), 0, seconds)).map((p) => p.message)).toEqual([
        'Question 1: seconds must be a whole number from 5 to 240, or empty for the room’s.',
      ])
    expect(problemsOf(edit.setSeconds(deck(['Q?', ['a', 'b'], 0]), 0, '240'))).toEqual([])
  })

  it('reads each kind back from the server, right answers and all', () => {
    const read = draftFrom({
      id: 'd',
      name: 'Kinds',
      builtin: false,
      editable: true,
      questions: [
        { text: 'Red planet?', choices: ['Venus', 'Mars'], correct: 1, seconds: 30 },
        { kind: 'truefalse', text: 'Water is wet.', choices: ['True', 'False'], correct: 0 },
        { kind: 'multi', text: 'Primes?', choices: ['2', '3', '4'], correct: [0, 1], image: 'img-1' },
        { kind: 'poll', text: 'Lunch?', choices: ['Pizza', 'Soup'] },
        { kind: 'text', text: 'Capital of France?', accepted: ['Paris'] },
      ] as never,
    })
    expect(toBody(read).questions).toEqual([
      { text: 'Red planet?', choices: ['Venus', 'Mars'], correct: 1, seconds: 30 },
      { kind: 'truefalse', text: 'Water is wet.', correct: 0 },
      { kind: 'multi', text: 'Primes?', choices: ['2', '3', '4'], correct: [0, 1], image: 'img-1' },
      { kind: 'poll', text: 'Lunch?', choices: ['Pizza', 'Soup'] },
      { kind: 'text', text: 'Capital of France?', accepted: ['Paris'] },
    ])
  })
})
