import fc from 'fast-check';
import { WIRE_CODES } from '@app/wire-codes';
import {
  CodeTable,
  CompactProfile,
  decodeFrames,
  encodeCompactEvent,
  encodeCompactReply,
  FrameDecoder,
  ReplyFrame,
  WireDecodeError,
  WireMemory,
} from '@app/protocol';

const ids = ['6f1c2a9e-0b1d-4c57-9a53-3f2d8f7d2a11', 'a3b9e0c4-5d2f-4e8a-b1c7-9d0e2f3a4b55', '0c9d8e7f-6a5b-4c3d-2e1f-0a9b8c7d6e5f'];
const settings = { deckId: 'general', questionCount: 2, secondsPerQuestion: 10, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 };
const players = ids.map((id, i) => ({ id, name: `P${i}`, connected: true, score: 0 }));

/** A trivia stream as one player's JSON socket gets it: the events and replies in order. */
function stream(): ({ type: string; data: unknown } | ReplyFrame)[] {
  return [
    {
      type: 'room.state',
      data: {
        code: 'K7QMPD',
        phase: 'lobby',
        you: { role: 'player', playerId: ids[0] },
        host: { name: 'Host' },
        players,
        settings,
        serverTime: 1000,
        wire: 'x',
      },
    },
    {
      type: 'question.open',
      data: { index: 0, total: 2, text: 'Which planet is largest?', choices: ['Mars', 'Jupiter'], closesAt: 11000, serverTime: 1000 },
    },
    { type: 'reply', id: 'c-1', status: 200, data: { accepted: true } },
    { type: 'question.progress', data: { index: 0, answered: 1, of: 3 } },
    { type: 'question.progress', data: { index: 0, answered: 2, of: 3 } },
    {
      type: 'question.closed',
      data: {
        index: 0,
        correct: 1,
        counts: [1, 1],
        scores: ids.map((playerId, i) => ({ playerId, points: i === 0 ? 850 : 0, total: i === 0 ? 850 : 0 })),
      },
    },
    {
      type: 'question.open',
      data: { index: 1, total: 2, text: 'Two plus two?', choices: ['3', '4', '5'], closesAt: 21000, serverTime: 11000 },
    },
    { type: 'reply', id: 'c-2', status: 409, error: { code: 'question_closed', message: 'question 0 is not open' } },
    { type: 'question.progress', data: { index: 1, answered: 1, of: 3 } },
    { type: 'player.presence', data: { playerId: ids[2], connected: false } },
    {
      type: 'game.finished',
      data: { standings: ids.map((playerId, i) => ({ playerId, name: `P${i}`, score: 0, correct: 0, rank: i + 1 })) },
    },
    { type: 'rematch.decided', data: { accepted: false, playerIds: [ids[1], 'not-a-known-id'] } },
    {
      type: 'room.state',
      data: {
        code: 'K7QMPD',
        phase: 'finished',
        you: { role: 'player', playerId: ids[0] },
        host: { name: 'Host' },
        players,
        settings,
        serverTime: 2000,
        wire: 'x',
      },
    },
    {
      type: 'room.state',
      data: {
        code: 'K7QMPD',
        phase: 'finished',
        you: { role: 'player', playerId: ids[0] },
        host: { name: 'Host' },
        players,
        settings,
        serverTime: 2000,
        wire: 'x',
      },
    },
    { type: 'room.closed', data: { reason: 'expired' } },
  ] as never;
}

/**
 * Returns what the server's encoder sends for `frames` on one socket of `profile`, and the JSON
 * frames those stand for.
 */
function encode(profile: CompactProfile, frames: ReturnType<typeof stream>, table: CodeTable = WIRE_CODES) {
  const memory = new WireMemory(table, profile);
  const sent: string[] = [];
  const json: unknown[] = [];
  let seq = 0;
  for (const f of frames) {
    if (f.type === 'reply') {
      sent.push(encodeCompactReply(profile, memory, f as ReplyFrame));
      json.push(JSON.parse(JSON.stringify(f)));
      continue;
    }
    const { type, data } = f as { type: string; data: unknown };
    const text = encodeCompactEvent(profile, memory, type, data);
    if (text === null) continue;
    memory.remember(type, data);
    sent.push(text);
    json.push({ type, seq: ++seq, data });
  }
  return { sent, json };
}

describe('compact profiles', () => {
  it.each(['compact-v1', 'compact-v2', 'compact-v3'] as const)('%s decodes back into exactly the JSON frames', (profile) => {
    const { sent, json } = encode(profile, stream());
    expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(json);
  });

  it('leaves out a state frame identical to the last one, and numbers what is sent without gaps', () => {
    const { sent, json } = encode('compact-v1', stream());
    expect(sent).toHaveLength(stream().length - 1);
    expect(json.filter((f: any) => f.type === 'room.state')).toHaveLength(2);
  });

  it('compact-v1 leaves out defaults and sticky fields, and keeps replies as they are', () => {
    const { sent } = encode('compact-v1', stream());
    expect(JSON.parse(sent[4])).toEqual({ type: 'question.progress', data: { answered: 2 } });
    expect(JSON.parse(sent[2])).toEqual({ type: 'reply', id: 'c-1', status: 200, data: { accepted: true } });
    expect(JSON.parse(sent[5]).data.scores[1]).toEqual({ playerId: ids[1], total: 0 });
  });

  it('compact-v2 numbers ids the socket was sent, and keeps id and status on replies', () => {
    const { sent } = encode('compact-v2', stream());
    expect(sent[5]).not.toContain(ids[1]);
    expect(JSON.parse(sent[2])).toMatchObject({ id: 'c-1', status: 200 });
    expect(JSON.parse(sent[7])).toEqual({ id: 'c-2', status: 409, error: { code: 'question_closed', message: 'question 0 is not open' } });
    // An id that the socket was never sent in full is sent in full.
    expect(sent[11]).toContain('not-a-known-id');
  });

  it('compact-v2 sends less than half of JSON for this stream', () => {
    const bytes = (frames: string[]) => frames.reduce((n, f) => n + f.length, 0);
    const plain = stream().map((f, i) => JSON.stringify(f.type === 'reply' ? f : { ...f, seq: i }));
    expect(bytes(encode('compact-v2', stream()).sent)).toBeLessThan(bytes(plain) / 2);
  });

  it('compact-v3 sends a lone count bare, names the open question once, and the deadline as its length', () => {
    const v2 = encode('compact-v2', stream()).sent;
    const { sent } = encode('compact-v3', stream());
    // question.open sends closesAt (e) as closesAt - serverTime (f).
    expect(JSON.parse(sent[1])).toEqual([4, { a: 0, b: 2, c: 'Which planet is largest?', d: ['Mars', 'Jupiter'], e: 10000, f: 1000 }]);
    // The first question.progress carries `of` (h), but not the index the open question gave. The
    // next one is its count alone.
    expect(JSON.parse(sent[3])).toEqual([5, { g: 1, h: 3 }]);
    expect(sent[4]).toBe('[5,2]');
    expect(JSON.parse(v2[4])).toEqual([5, { g: 2 }]);
    // question.closed has no index (a) while the index is the open question's.
    expect(JSON.parse(sent[5])[1]).not.toHaveProperty('a');
    expect(JSON.parse(v2[5])[1]).toHaveProperty('a', 0);
    const bytes = (frames: string[]) => frames.reduce((n, f) => n + f.length, 0);
    expect(bytes(sent)).toBeLessThan(bytes(v2));
  });

  it('compact-v3 sends a count for another question with its index, and a progress frame with more than the count in full', () => {
    const frames = [
      stream()[0],
      { type: 'question.open', data: { index: 0, total: 2, text: 'Q', choices: ['a', 'b'], closesAt: 11000, serverTime: 1000 } },
      { type: 'question.progress', data: { index: 1, answered: 1, of: 3 } },
      { type: 'question.progress', data: { index: 1, answered: 2, of: 4 } },
      { type: 'question.closed', data: { index: 0, correct: 1, counts: [0, 2], scores: [] } },
    ];
    const { sent, json } = encode('compact-v3', frames as never);
    expect(JSON.parse(sent[2])).toEqual([5, { a: 1, g: 1, h: 3 }]);
    expect(JSON.parse(sent[3])).toEqual([5, { g: 2, h: 4 }]);
    // The progress frames moved the shared index to 1, so the reveal of question 0 names its index.
    expect(JSON.parse(sent[4])[1]).toHaveProperty('a', 0);
    expect(decodeFrames('compact-v3', sent, WIRE_CODES)).toEqual(json);
  });

  it('sends section 13’s keys as their own text in every compact profile, and decodes them with the table as it shipped', () => {
    const frames = [
      stream()[0],
      {
        type: 'question.open',
        data: {
          index: 0,
          total: 2,
          text: 'Capital?',
          kind: 'text',
          seconds: 30,
          image: '/api/images/i1',
          closesAt: 31000,
          serverTime: 1000,
        },
      },
      { type: 'question.closed', data: { index: 0, correct: ['Paris'], counts: { right: 2, wrong: 1 }, scores: [] } },
      { type: 'game.finished', data: { standings: [{ playerId: ids[0], name: 'P0', score: 0, correct: 0, rank: 1, from: 1 }] } },
    ];
    for (const profile of ['compact-v1', 'compact-v2', 'compact-v3'] as const) {
      const { sent, json } = encode(profile, frames as never);
      for (const key of ['kind', 'seconds', 'image', 'right', 'wrong', 'from']) expect(sent.join('')).toContain(`"${key}"`);
      expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(json);
    }
  });

  // These are values a rule could mistake: counts that are not numbers, deadlines that are not
  // numbers, fractions, questions out of order, and missing fields.
  const num = fc.oneof(
    fc.integer({ min: -3, max: 30 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(1.5e12, 0.1, -0),
  );
  const leaf = fc.oneof(
    num,
    fc.constantFrom('a', '~', 'lobby', 'x', ids[0]),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.nat(5), { maxLength: 3 }),
    fc.constant({ g: 1 }),
  );
  const maybe = (v: fc.Arbitrary<unknown>) => fc.option(v, { nil: undefined });
  const trivia = fc.oneof(
    fc.record({
      type: fc.constant('question.open'),
      data: fc.record(
        {
          index: maybe(fc.oneof(fc.nat(3), leaf)),
          total: maybe(fc.nat(3)),
          text: fc.constant('Q'),
          closesAt: maybe(fc.oneof(num, leaf)),
          serverTime: maybe(fc.oneof(num, leaf)),
        },
        { requiredKeys: ['text'] },
      ),
    }),
    fc.record({
      type: fc.constant('question.progress'),
      data: fc.record(
        { index: maybe(fc.oneof(fc.nat(3), leaf)), answered: maybe(fc.oneof(fc.nat(5), leaf)), of: maybe(fc.nat(5)) },
        { requiredKeys: [] },
      ),
    }),
    fc.record({
      type: fc.constant('question.closed'),
      data: fc.record(
        { index: maybe(fc.oneof(fc.nat(3), leaf)), correct: fc.nat(3), counts: fc.array(fc.nat(4), { maxLength: 3 }) },
        { requiredKeys: ['correct'] },
      ),
    }),
  );

  it.each(['compact-v2', 'compact-v3'] as const)('%s: the decoder inverts the encoder on random question sequences', (profile) => {
    fc.assert(
      fc.property(fc.array(trivia, { minLength: 1, maxLength: 12 }), (events) => {
        const frames = [stream()[0], ...JSON.parse(JSON.stringify(events))];
        const { sent, json } = encode(profile, frames as never);
        expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(json);
      }),
      { numRuns: 400 },
    );
  });

  it('sends data that its rules cannot express exactly as it is, marked plain', () => {
    const odd = [
      stream()[0],
      { type: 'question.progress', data: { index: 'zero', answered: 1 } },
      { type: 'question.closed', data: { index: 0, correct: 1, counts: [], scores: [{ playerId: 7 }] } },
    ];
    for (const profile of ['compact-v1', 'compact-v2', 'compact-v3'] as const) {
      const { sent, json } = encode(profile, odd as never);
      expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(json);
    }
    const { sent } = encode('compact-v2', odd as never);
    expect(JSON.parse(sent[2])[2]).toBe(0);
  });

  it('escapes keys that look like codes, and keys unknown to the table pass as they are', () => {
    const frames = [stream()[0], { type: 'question.open', data: { a: 1, '~b': 2, novel: { index: 3 } } }];
    const { sent, json } = encode('compact-v2', frames as never);
    expect(decodeFrames('compact-v2', sent, WIRE_CODES)).toEqual(json);
  });

  it('drops a frame that changes nothing for its viewer, where a game says so', () => {
    const cards: CodeTable = {
      version: 1,
      maxIds: 8,
      games: [
        {
          kind: 'cards',
          stateEvent: 'table.snapshot',
          events: { 'table.snapshot': { code: 0 }, 'hole_cards.dealt': { code: 1, noopWhenNull: 'cards' } },
          keys: ['seat', 'cards'],
          enums: {},
          ids: [],
        },
      ],
    };
    const frames = [
      { type: 'table.snapshot', data: { seat: 1 } },
      { type: 'hole_cards.dealt', data: { seat: 2, cards: null } },
      { type: 'hole_cards.dealt', data: { seat: 1, cards: ['As', 'Kd'] } },
    ];
    const { sent, json } = encode('compact-v2', frames as never, cards);
    expect(sent).toHaveLength(2);
    expect(decodeFrames('compact-v2', sent, cards)).toEqual(json);
    expect(json[1]).toEqual({ type: 'hole_cards.dealt', seq: 2, data: { seat: 1, cards: ['As', 'Kd'] } });
  });

  it('a fresh decoder (a reconnect) knows nothing of an earlier socket', () => {
    const { sent } = encode('compact-v2', stream());
    const decoder = new FrameDecoder('compact-v2', WIRE_CODES);
    expect(() => decoder.decode(sent[5])).toThrow(WireDecodeError);
  });

  it('json frames decode as they are', () => {
    const frame = { type: 'question.open', seq: 4, data: { index: 0 } };
    expect(decodeFrames('json', [JSON.stringify(frame)], WIRE_CODES)).toEqual([frame]);
  });
});
