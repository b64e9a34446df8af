import { RoomException } from '../room-error';
import { DeckBody } from './decks';
import { FinishedQuery } from './admin';
import { readBody, readQuery } from './read';

function refusal(read: () => unknown): { status: number; code: string; message: string } {
  try {
    read();
  } catch (e) {
    if (e instanceof RoomException) return { status: e.httpStatus, code: e.code, message: e.message };
    throw e;
  }
  throw new Error('read did not refuse');
}

const question = { text: 'Q?', choices: ['a', 'b'], correct: 0 };

describe(readBody.name, () => {
  it('answers what the schema reads: trimmed, with its defaults', () => {
    expect(readBody(DeckBody, { name: '  Quiz ', questions: [question] })).toEqual({ name: 'Quiz', questions: [question] });
  });

  it.each([
    ['a body that is not an object', null, 'the body must be a JSON object'],
    ['a missing field', { questions: [question] }, 'name must be 1 to 64 printable characters'],
    ['a nested field, by its path', { name: 'Q', questions: [question, { ...question, choices: ['a', 'b', 'c'], correct: 3 }] }, 'questions[1].correct must be a whole number from 0 to 2'],
    ['an element of a nested array', { name: 'Q', questions: [{ ...question, choices: ['a', '\u0007'] }] }, 'questions[0].choices[1] must be 1 to 120 printable characters'],
    ['a rule over several fields', { name: 'Q', questions: [{ ...question, choices: ['a', 'a'] }] }, 'questions[0].choices must all differ'],
  ])('refuses %s with 400 bad_data naming it', (_what, body, message) => {
    expect(refusal(() => readBody(DeckBody, body))).toEqual({ status: 400, code: 'bad_data', message });
  });
});

describe(readQuery.name, () => {
  it('takes an empty parameter as absent, and reads text as what it means', () => {
    expect(readQuery(FinishedQuery, { code: '', from: '2026-12-01', to: '2026-12-01', limit: '5' })).toEqual({
      from: Date.UTC(2026, 11, 1),
      to: Date.UTC(2026, 11, 2),
      limit: 5,
    });
  });

  it('names the parameter, and a rule between two of them by the later one', () => {
    expect(refusal(() => readQuery(FinishedQuery, { limit: ['5', '6'] })).message).toBe('limit must be a whole number from 1 to 100');
    expect(refusal(() => readQuery(FinishedQuery, { from: '2026-12-02', to: '2026-12-01' })).message).toBe('to must be after from');
  });
});
