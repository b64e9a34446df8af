import { z } from 'zod';
import { deriveCodes } from './derive-codes.js';
import { idField, laterKey, plainEnum, textKey, usualValues } from './wire-notes.js';

// A neutral game of rounds of moves, so that the derivation's rules are tested without a real game.
const mover = idField(z.string());
const ROUNDS_EVENTS = {
  'rounds.state': z.object({
    code: z.string(),
    phase: z.enum(['open', 'done']),
    seats: z.array(z.object({ id: idField(z.string()), name: z.string(), ready: z.boolean().optional() })),
  }),
  'round.move': z.object({ by: mover, cell: z.number(), mark: z.enum(['X', 'O']).nullable() }),
  'round.closed': z.object({ winners: z.array(mover), reason: usualValues(z.string(), ['won', 'draw']) }),
};
const ROUNDS = { kind: 'rounds', stateEvent: 'rounds.state', events: ROUNDS_EVENTS };

describe('deriveCodes', () => {
  it('codes the events by their declaration and numbers keys depth first, in declaration order', () => {
    const codes = deriveCodes({ ...ROUNDS, compact: { 'round.move': { sticky: ['by'] } } });
    expect(codes.events).toEqual({ 'rounds.state': { code: 0 }, 'round.move': { code: 1, sticky: ['by'] }, 'round.closed': { code: 2 } });
    expect(codes.keys).toEqual(['code', 'phase', 'seats', 'id', 'name', 'ready', 'by', 'cell', 'mark', 'winners', 'reason']);
    expect(codes.enums).toEqual({ phase: ['open', 'done'], mark: ['X', 'O'], reason: ['won', 'draw'] });
    // Ids are a set, so they are listed sorted, wherever they were met.
    expect(codes.ids).toEqual(['by', 'id', 'winners']);
  });

  it('walks the events of keyOrder first, and keys marked for a later pass after every other', () => {
    const codes = deriveCodes({
      ...ROUNDS,
      events: {
        ...ROUNDS_EVENTS,
        'rounds.state': ROUNDS_EVENTS['rounds.state'].extend({ late: laterKey(z.object({ deep: z.number() })) }),
      },
      keyOrder: ['round.closed'],
    });
    expect(codes.keys).toEqual([
      'winners',
      'reason',
      'code',
      'phase',
      'seats',
      'id',
      'name',
      'ready',
      'by',
      'cell',
      'mark',
      'late',
      'deep',
    ]);
  });

  it('numbers no key marked textKey, nor any key under it, and gives it no enum: the table stays as it was', () => {
    const before = deriveCodes(ROUNDS);
    const after = deriveCodes({
      ...ROUNDS,
      events: {
        ...ROUNDS_EVENTS,
        'round.move': ROUNDS_EVENTS['round.move'].extend({
          style: textKey(z.enum(['bold', 'faint']).optional()),
          extra: textKey(z.object({ depth: z.number(), fresh: z.string() }).optional()),
        }),
      },
    });
    expect(after).toEqual(before);
  });

  it('keeps every existing code when an event and a later key are added: they go at the end', () => {
    const before = deriveCodes(ROUNDS);
    const after = deriveCodes({
      ...ROUNDS,
      events: {
        ...ROUNDS_EVENTS,
        // Add a new field to an old event, marked for the next pass, and a new event declared last.
        'round.move': ROUNDS_EVENTS['round.move'].extend({ undo: laterKey(z.boolean().optional()) }),
        'round.undone': z.object({ by: mover, cell: z.number(), steps: laterKey(z.number()) }),
      },
    });
    expect(after.keys.slice(0, before.keys.length)).toEqual(before.keys);
    expect(after.keys.slice(before.keys.length)).toEqual(['undo', 'steps']);
    for (const [type, codes] of Object.entries(before.events)) expect(after.events[type]).toEqual(codes);
    expect(after.events['round.undone']).toEqual({ code: 3 });
  });

  it('gives no enum to a key marked plain anywhere', () => {
    const codes = deriveCodes({
      ...ROUNDS,
      events: { ...ROUNDS_EVENTS, 'round.marked': z.object({ mark: plainEnum(z.enum(['X', 'O'])) }) },
    });
    expect(codes.enums).toEqual({ phase: ['open', 'done'], reason: ['won', 'draw'] });
  });

  it('refuses two different enums under one key, an unknown event, and a state event without a schema', () => {
    const clash = { ...ROUNDS_EVENTS, 'round.other': z.object({ phase: z.enum(['done', 'open']) }) };
    expect(() => deriveCodes({ ...ROUNDS, events: clash })).toThrow('rounds: the key phase has two different enums');
    expect(() => deriveCodes({ ...ROUNDS, keyOrder: ['round.nope'] })).toThrow('rounds: round.nope is not one of its events');
    expect(() => deriveCodes({ ...ROUNDS, compact: { 'round.nope': {} } })).toThrow('rounds: round.nope is not one of its events');
    expect(() => deriveCodes({ ...ROUNDS, stateEvent: 'rounds.nope' })).toThrow('rounds: the state event rounds.nope has no schema');
  });

  it('refuses more keys than there are letters to send them as', () => {
    const wide = z.object(Object.fromEntries(Array.from({ length: 53 }, (_, i) => [`k${i}`, z.number()])));
    expect(() => deriveCodes({ ...ROUNDS, events: { ...ROUNDS_EVENTS, 'round.wide': wide } })).toThrow(/more than the 52 letters/);
  });
});
