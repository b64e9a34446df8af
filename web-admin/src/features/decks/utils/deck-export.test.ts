import { describe, expect, it } from 'vitest'
import { deckJson, exportFileName } from './deck-export'

describe('deck export', () => {
  it('writes the deck as the body the deck API takes, and names files after the deck', () => {
    const deck = {
      id: 'd',
      name: 'Kinds',
      builtin: false,
      editable: true,
      questions: [
        { text: 'Q?', choices: ['a', 'b'], correct: 0, seconds: 30 },
        { kind: 'text' as const, text: 'Capital?', accepted: ['Paris'], image: 'img-1' },
      ],
    }
    expect(JSON.parse(deckJson(deck))).toEqual({ name: 'Kinds', questions: deck.questions })
    expect(exportFileName('Sciences & Élan: Quiz #2', 'csv')).toBe('sciences-elan-quiz-2.csv')
    expect(exportFileName('!!!', 'json')).toBe('deck.json')
  })
})
