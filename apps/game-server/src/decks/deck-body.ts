import { asObject, invalid, printable, wholeNumber } from '@app/protocol';
import { NewQuestion } from './deck.repository';
import { DECK_LIMITS as L } from './deck-limits';

export interface DeckInput {
  readonly name: string;
  readonly questions: NewQuestion[];
}

/** A deck's JSON body (`POST` and `PUT /api/decks`): each 400 names the offending field. */
export function readDeckBody(body: unknown): DeckInput {
  const b = asObject(body);
  const name = readDeckName(b.name);
  if (!Array.isArray(b.questions) || b.questions.length < L.minQuestions || b.questions.length > L.maxQuestions) {
    throw invalid('questions', `must be an array of ${L.minQuestions} to ${L.maxQuestions} questions`);
  }
  const questions = b.questions.map((raw, i): NewQuestion => {
    const q = asObject(raw, `questions[${i}]`);
    if (!Array.isArray(q.choices) || q.choices.length < L.minChoices || q.choices.length > L.maxChoices) {
      throw invalid(`questions[${i}].choices`, `must be an array of ${L.minChoices} to ${L.maxChoices} choices`);
    }
    const choices = q.choices.map((c, j) => printable(c, `questions[${i}].choices[${j}]`, L.choice));
    if (new Set(choices).size !== choices.length) throw invalid(`questions[${i}].choices`, 'must all differ');
    return {
      text: printable(q.text, `questions[${i}].text`, L.text),
      choices,
      // 0-based here; the CSV's column is 1-based, as a spreadsheet counts.
      correct: wholeNumber(q.correct, `questions[${i}].correct`, 0, choices.length - 1),
    };
  });
  return { name, questions };
}

export function readDeckName(value: unknown): string {
  return printable(value, 'name', L.name);
}
