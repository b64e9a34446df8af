import type { GameResults } from './api/results-types'

/**
 * A finished game of three players and three questions, as the API sends it. Question 2 lists no
 * answer for Cy, who let the time run out. Question 3 comes without its choices' texts and spells
 * out Cy's empty answer. The hardest question is 3 (nobody was right), and the slowest is
 * question 2 (4.5 s on average).
 */
export const RESULTS: GameResults = {
  code: 'K7QMPD',
  number: 2,
  finishedAt: Date.UTC(2026, 2, 14, 9, 30),
  readableUntil: Date.UTC(2026, 3, 13, 9, 30),
  standings: [
    { playerId: 'p1', name: 'Ann', score: 1600, correct: 2, rank: 1 },
    { playerId: 'p3', name: 'Cy', score: 800, correct: 1, rank: 2 },
    { playerId: 'p2', name: 'Bob', score: 0, correct: 0, rank: 3 },
  ],
  questions: [
    {
      index: 0,
      text: 'Which planet is called the red planet?',
      choices: ['Venus', 'Mars', 'Jupiter'],
      correct: 1,
      rightRate: 2 / 3,
      answers: [
        { playerId: 'p1', name: 'Ann', choice: 1, right: true, points: 900, ms: 1200 },
        { playerId: 'p2', name: 'Bob', choice: 0, right: false, points: 0, ms: 3000 },
        { playerId: 'p3', name: 'Cy', choice: 1, right: true, points: 800, ms: 2100 },
      ],
    },
    {
      index: 1,
      text: 'How many legs has a spider?',
      choices: ['Six', 'Eight'],
      correct: 1,
      rightRate: 1 / 3,
      answers: [
        { playerId: 'p1', name: 'Ann', choice: 1, right: true, points: 700, ms: 4000 },
        { playerId: 'p2', name: 'Bob', choice: 0, right: false, points: 0, ms: 5000 },
      ],
    },
    {
      index: 2,
      text: 'Which ocean is the largest?',
      correct: 2,
      rightRate: 0,
      answers: [
        { playerId: 'p1', name: 'Ann', choice: 0, right: false, points: 0, ms: 1000 },
        { playerId: 'p2', name: 'Bob', choice: 1, right: false, points: 0, ms: 1500 },
        { playerId: 'p3', name: 'Cy', choice: null, right: false, points: 0, ms: null },
      ],
    },
  ],
}
