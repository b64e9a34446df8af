import fc from 'fast-check';
import { checkData } from '@game-rooms/client';
import { CARDS_COMMANDS, TABLE_ACTIONS } from '../cards/src/cards.wire';
import { TICTACTOE_WIRE } from '../tictactoe/src/tictactoe.wire';
import { TRIVIA_COMMANDS } from '../trivia/src/trivia.wire';

// The schemas replaced hand-written checks. These are those checks as they were, so that a property
// test can show that the schemas accept and refuse the same data and name the same field.
const isObject = (d: unknown): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d);
const index = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function handAnswer(d: unknown): string | undefined {
  if (!isObject(d)) return 'data must be a JSON object';
  if (!index(d.question)) return 'data.question must be a whole number from 0';
  if (!index(d.choice)) return 'data.choice must be a whole number from 0';
  return undefined;
}

function handAct(d: unknown): string | undefined {
  if (!isObject(d)) return 'data must be a JSON object';
  if (typeof d.action !== 'string' || !(TABLE_ACTIONS as readonly string[]).includes(d.action))
    return `data.action must be one of ${TABLE_ACTIONS.join(', ')}`;
  if (d.amount === undefined || d.amount === null) return undefined;
  if (typeof d.amount !== 'number' || !Number.isSafeInteger(d.amount) || d.amount < 0 || d.amount > 1_000_000_000)
    return 'data.amount must be a whole number of chips';
  return undefined;
}

const message = (schema: Parameters<typeof checkData>[0], data: unknown) => {
  const checked = checkData(schema, data);
  return checked.ok ? undefined : checked.message;
};

// Numbers at the edges: negatives, fractions, huge numbers, NaN, and the whole numbers in between.
const number = fc.oneof(
  fc.integer({ min: -3, max: 12 }),
  fc.double(),
  fc.constantFrom(2 ** 53, 1e21, -0, Number.NaN, 1_000_000_000, 1_000_000_001),
);
const anything = fc.oneof(
  number,
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer()),
  fc.object(),
);

describe('command schemas', () => {
  it('refuse and accept room.answer as the hand-written check did, with the same message', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.record({ question: fc.oneof(number, anything), choice: fc.oneof(number, anything) }, { requiredKeys: [] }), anything),
        (data) => {
          expect(message(TRIVIA_COMMANDS['room.answer'], data)).toBe(handAnswer(data));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuse and accept table.act as the hand-written check did, with the same message', () => {
    const action = fc.oneof(fc.constantFrom(...TABLE_ACTIONS), fc.constantFrom('shove', '', 'FOLD'), anything);
    fc.assert(
      fc.property(fc.oneof(fc.record({ action, amount: fc.oneof(number, anything) }, { requiredKeys: [] }), anything), (data) => {
        expect(message(CARDS_COMMANDS['table.act'], data)).toBe(handAct(data));
      }),
      { numRuns: 2000 },
    );
  });

  it('drop the fields a command does not know', () => {
    expect(checkData(TRIVIA_COMMANDS['room.answer'], { question: 1, choice: 2, extra: 'x' })).toEqual({
      ok: true,
      data: { question: 1, choice: 2 },
    });
    expect(checkData(TRIVIA_COMMANDS['room.start'], { force: true })).toEqual({ ok: true, data: {} });
  });

  it('name the field in every refusal', () => {
    expect(message(TRIVIA_COMMANDS['room.rematch'], { vote: 'yes' })).toBe('data.vote must be true or false');
    expect(message(TRIVIA_COMMANDS['room.kick'], { playerId: '' })).toBe('data.playerId must be a player id');
    expect(message(TRIVIA_COMMANDS['room.kick'], { playerId: 'p'.repeat(65) })).toBe('data.playerId must be a player id');
    expect(message(TICTACTOE_WIRE.commands['ttt.move'], { cell: 9 })).toBe('data.cell must be a whole number from 0 to 8');
    expect(message(TRIVIA_COMMANDS['room.leave'], [1])).toBe('data must be a JSON object');
  });
});
