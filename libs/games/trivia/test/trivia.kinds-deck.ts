// The kinds' property tests play this deck. It has a question of every kind (PROTOCOL.md section
// 13), as a deck holds them, and the answers players may type or pick for it.
import { DeckQuestion } from '../src/trivia.opening';

export const KINDS_DECK: DeckQuestion[] = [
  { id: 31, text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome', 'Madrid'], correct: 1 },
  { id: 32, kind: 'truefalse', text: 'The Sun is a star.', correct: 0, seconds: 10 },
  { id: 33, kind: 'multi', text: 'Which are prime?', choices: ['2', '3', '4', '9'], correct: [0, 1], image: 'img-primes' },
  { id: 34, kind: 'poll', text: 'Best season?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] },
  { id: 35, kind: 'text', text: 'A vital force, in French philosophy?', accepted: ['Élan vital', 'Elan'], seconds: 30 },
];

/**
 * What players type. None of it is spelled exactly like an accepted answer, so that a frame holding
 * one of these can only be a leak. Several of them are right once case, accents and spaces are
 * ignored.
 */
export const TYPED = ['élan   VITAL', 'ELAN', 'elan vital', 'Lyon', 'Bergson', 'vital élan'];

/**
 * Returns the question with another right answer, the `pick`-th of those it could have. No frame
 * before the question's reveal may tell this question apart from the first.
 */
export function otherAnswers(q: DeckQuestion, pick: number): DeckQuestion {
  switch (q.kind) {
    case undefined:
    case 'choice':
      return { ...q, correct: (q.correct + 1 + (pick % (q.choices.length - 1))) % q.choices.length };
    case 'truefalse':
      return { ...q, correct: q.correct === 0 ? 1 : 0 };
    case 'multi': {
      // List every other non-empty set of choices, each made from a bit mask.
      const sets = Array.from({ length: 2 ** q.choices.length - 1 }, (_, m) =>
        q.choices.map((_, i) => i).filter((i) => ((m + 1) >> i) & 1),
      );
      const others = sets.filter((s) => s.join() !== [...q.correct].sort((a, b) => a - b).join());
      return { ...q, correct: others[pick % others.length] };
    }
    case 'poll':
      return q;
    case 'text':
      return { ...q, accepted: [['Marseille'], ['Lyon'], ['Bergson', 'Élan']][pick % 3] };
  }
}
