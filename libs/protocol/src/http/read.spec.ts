import { z } from 'zod';
import { RoomException } from '../room-error';
import { FinishedQuery, jsonObject, printableField, wholeField } from '@game-rooms/client';
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

// The test body has a name and a list of entries, each with options and a pick among them. The
// reader names a field nested in a list by its path, and names a rule over several fields by the
// field the rule points at.
const Entry = jsonObject({
  text: printableField(300),
  options: z
    .array(printableField(120))
    .min(2)
    .refine((c) => new Set(c).size === c.length, 'must all differ'),
  pick: wholeField(0, 5),
}).superRefine((e, ctx) => {
  if (e.pick >= e.options.length)
    ctx.addIssue({ code: 'custom', path: ['pick'], message: `must be a whole number from 0 to ${e.options.length - 1}` });
});
const ListBody = jsonObject({ name: printableField(64), entries: z.array(Entry).min(1) });

const entry = { text: 'E?', options: ['a', 'b'], pick: 0 };

describe(readBody.name, () => {
  it('answers what the schema reads: trimmed, with its defaults', () => {
    expect(readBody(ListBody, { name: '  List ', entries: [entry] })).toEqual({ name: 'List', entries: [entry] });
  });

  it.each([
    ['a body that is not an object', null, 'the body must be a JSON object'],
    ['a missing field', { entries: [entry] }, 'name must be 1 to 64 printable characters'],
    [
      'a nested field, by its path',
      { name: 'Q', entries: [entry, { ...entry, options: ['a', 'b', 'c'], pick: 3 }] },
      'entries[1].pick must be a whole number from 0 to 2',
    ],
    [
      'an element of a nested array',
      { name: 'Q', entries: [{ ...entry, options: ['a', '\u0007'] }] },
      'entries[0].options[1] must be 1 to 120 printable characters',
    ],
    ['a rule over several fields', { name: 'Q', entries: [{ ...entry, options: ['a', 'a'] }] }, 'entries[0].options must all differ'],
  ])('refuses %s with 400 bad_data naming it', (_what, body, message) => {
    expect(refusal(() => readBody(ListBody, body))).toEqual({ status: 400, code: 'bad_data', message });
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
