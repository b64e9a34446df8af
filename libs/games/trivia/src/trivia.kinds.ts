import { refuse, TriviaErrorCode } from './trivia.errors';
import { Given, Question, QuestionKind, RevealedAnswer } from './trivia.types';

// These functions say what each kind of question takes and counts as right (PROTOCOL.md section 13).
// They are pure functions of the question and what a player gave. The rules decide when something
// happens, and these functions decide what.

/** The choices of every `truefalse` question, in the order its `correct` counts them (0 is True). */
export const TRUE_FALSE: readonly string[] = Object.freeze(['True', 'False']);

export function kindOf(q: Question): QuestionKind {
  return q.kind ?? 'choice';
}

/** The choices a player picks from. A `text` question has none. */
export function choicesOf(q: Question): readonly string[] | undefined {
  return q.kind === 'text' ? undefined : q.choices;
}

/**
 * Normalizes a typed answer for comparison: Unicode NFKD, accents removed, lower case, runs of white
 * space made one space, and trimmed. So "  Élan  Vital " and "elan vital" are the same answer.
 */
export function normalizedText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Reads what an answer's data gives, by the field it holds. The wire's schema lets exactly one field through. */
export function givenOf(data: { readonly choice?: number; readonly choices?: readonly number[]; readonly text?: string }): Given {
  if (data.choices !== undefined) return { choices: [...data.choices].sort((a, b) => a - b) };
  if (data.text !== undefined) return { text: data.text };
  return { choice: data.choice! };
}

/**
 * Refuses (400) an answer that does not fit the question: the wrong field for its kind, or a choice
 * the question does not have. The wire's schema has already checked the data's own shape.
 */
export function checkGiven(q: Question, given: Given, index: number): void {
  const kind = kindOf(q);
  const fits = kind === 'text' ? 'text' in given : kind === 'multi' ? 'choices' in given : 'choice' in given;
  if (!fits) {
    const field = kind === 'text' ? 'text' : kind === 'multi' ? 'choices' : 'choice';
    refuse(TriviaErrorCode.WrongAnswerKind, `question ${index} is a ${kind} question: answer it with { question, ${field} }`);
  }
  if (q.kind === 'text') return;
  const picked = 'choices' in given ? given.choices : 'choice' in given ? [given.choice] : [];
  if (picked.some((c) => c >= q.choices.length))
    refuse(TriviaErrorCode.ChoiceOutOfRange, `choice must be from 0 to ${q.choices.length - 1}`);
}

/**
 * Tells whether the answer is right. A poll has no right answer. A typed answer is right when it
 * matches an accepted answer as people read it.
 */
export function isRight(q: Question, given: Given): boolean {
  switch (q.kind) {
    case 'poll':
      return false;
    case 'text':
      return 'text' in given && q.accepted.some((a) => normalizedText(a) === normalizedText(given.text));
    case 'multi':
      // The answer must hold every right choice and only those. `givenOf` sorted the choices, and the
      // room's copy of the deck holds the right ones sorted and distinct.
      return 'choices' in given && given.choices.length === q.correct.length && given.choices.every((c, i) => c === q.correct[i]);
    default:
      return 'choice' in given && given.choice === q.correct;
  }
}

/** Whether answers to this question score points at all. */
export function earnsPoints(q: Question): boolean {
  return q.kind !== 'poll';
}

/** Returns the right answer, as the reveal shows it. */
export function revealed(q: Question): RevealedAnswer {
  switch (q.kind) {
    case 'poll':
      return null;
    case 'text':
      return q.accepted;
    default:
      return q.correct;
  }
}

/**
 * Counts the answers for the reveal: how many players picked each choice (a `multi` answer counts for
 * each of its choices), or how many typed answers are right and wrong.
 */
export function countsOf(
  q: Question,
  answers: readonly (Given & { readonly correct: boolean })[],
): readonly number[] | { readonly right: number; readonly wrong: number } {
  if (q.kind === 'text') {
    const right = answers.filter((a) => a.correct).length;
    return { right, wrong: answers.length - right };
  }
  const counts = q.choices.map(() => 0);
  for (const a of answers) {
    if ('choice' in a) counts[a.choice]++;
    else if ('choices' in a) for (const c of a.choices) counts[c]++;
  }
  return counts;
}

/** Keeps only what was given, out of an answer that holds more (its player, its points...). */
export function givenIn(a: Given): Given {
  if ('text' in a) return { text: a.text };
  if ('choices' in a) return { choices: a.choices };
  return { choice: a.choice };
}

/** Writes what a player gave in the question's words: the choice's text, the choices' texts, or the typed text. */
export function givenWords(q: { readonly choices: readonly string[] }, given: Given): string {
  if ('text' in given) return given.text;
  if ('choices' in given) return given.choices.map((c) => q.choices[c] ?? String(c)).join(' | ');
  return q.choices[given.choice] ?? String(given.choice);
}
