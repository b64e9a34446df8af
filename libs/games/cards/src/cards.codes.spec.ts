import { CompactProfile, decodeFrames, encodeCompactEvent, encodeCompactReply, KEY_LETTERS, ReplyFrame, WireMemory } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';
import fc from 'fast-check';
import { prng, TableSim, wildHuman } from '../test/cards.fixtures';
import { compactStreamOf, WireEvent } from '../test/cards.wire';
import { CARDS_WIRE_CODES } from './cards.wire';
import { cardsRules } from './cards.game';
import { FULL_DECK } from './cards.deck';

const CARDS_EVENT_TYPES = cardsRules.eventTypes;

type Sent = WireEvent | ReplyFrame;
const PROFILES: readonly CompactProfile[] = ['compact-v1', 'compact-v2', 'compact-v3'];

/** What the server's encoder sends for `frames` on one socket of `profile`. */
function encode(profile: CompactProfile, frames: readonly Sent[]): string[] {
  const memory = new WireMemory(WIRE_CODES, profile);
  const sent: string[] = [];
  for (const f of frames) {
    if (f.type === 'reply') {
      sent.push(encodeCompactReply(profile, memory, f as ReplyFrame));
      continue;
    }
    const { type, data } = f as WireEvent;
    const text = encodeCompactEvent(profile, memory, type, data);
    if (text === null) continue;
    memory.remember(type, data);
    sent.push(text);
  }
  return sent;
}

/**
 * What decoding a socket's frames must give: the socket's JSON stream without the frames that
 * section 7 drops, with the replies in their places.
 */
function expectedOf(frames: readonly Sent[]): unknown[] {
  const out: unknown[] = [];
  const events: WireEvent[] = [];
  let kept = 0;
  for (const f of frames) {
    if (f.type === 'reply') {
      out.push(f);
      continue;
    }
    events.push(f as WireEvent);
    const stream = compactStreamOf(events);
    if (stream.length > kept) out.push(stream[kept++]);
  }
  return out;
}

/** Frames as the wire carries them. What JSON cannot say, like -0, the wire says its own way. */
const onWire = <T>(frames: T): T => JSON.parse(JSON.stringify(frames));

const snapshot = (over: Record<string, unknown> = {}) => ({
  code: 'CARDS1',
  phase: 'playing',
  you: { role: 'spectator' },
  rules: { smallBlind: 1, bigBlind: 2, buyIn: 200, actionSeconds: 15 },
  seats: [0, 1, 2].map((seat) => ({
    seat,
    name: seat === 0 ? 'Ada' : `Bot ${seat}`,
    human: seat === 0,
    stack: 200,
    committed: 0,
    folded: false,
    allIn: false,
    connected: seat === 0,
    buyInTotal: 200,
  })),
  handsPlayed: 0,
  serverTime: 1000,
  wire: 'compact-v2',
  ...over,
});

describe('the card table’s compact-v2 section', () => {
  it('has a code for every event type, a letter for every key, and every card once', () => {
    expect(Object.keys(CARDS_WIRE_CODES.events).sort()).toEqual([...CARDS_EVENT_TYPES].sort());
    const codes = Object.values(CARDS_WIRE_CODES.events).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(CARDS_WIRE_CODES.keys.length).toBeLessThanOrEqual(KEY_LETTERS.length);
    expect(new Set(CARDS_WIRE_CODES.keys).size).toBe(CARDS_WIRE_CODES.keys.length);
    expect([...CARDS_WIRE_CODES.enums.cards].sort()).toEqual([...FULL_DECK].sort());
    expect(WIRE_CODES.games.map((g) => g.stateEvent)).toEqual(['room.state', 'table.snapshot']);
  });

  it('does not send a non-owner’s deal or a snapshot identical to the last, and numbers what it sends without gaps', () => {
    const frames: Sent[] = [
      { type: 'table.snapshot', data: snapshot() },
      {
        type: 'hand.started',
        data: {
          number: 1,
          button: 0,
          blinds: [
            { seat: 1, amount: 1 },
            { seat: 2, amount: 2 },
          ],
          pot: 3,
          currentBet: 2,
          minRaise: 4,
        },
      },
      { type: 'hole_cards.dealt', data: { seat: 1, cards: null } },
      { type: 'hole_cards.dealt', data: { seat: 2, cards: null } },
      { type: 'hole_cards.dealt', data: { seat: 0, cards: ['As', 'Kd'] } },
      { type: 'time_bank', data: { seat: 0, remainingMs: 15000 } },
      { type: 'table.snapshot', data: snapshot({ serverTime: 2000 }) },
      { type: 'table.snapshot', data: snapshot({ serverTime: 2000 }) },
      { type: 'reply', id: 'c-1', status: 200, data: {} },
      {
        type: 'action.applied',
        data: { seat: 0, action: 'call', amount: 2, stack: 198, pot: 4, currentBet: 2, toAct: 1, actionDeadline: 17000 },
      },
      { type: 'time_bank', data: { seat: 1, remainingMs: 15000 } },
      {
        type: 'action.applied',
        data: { seat: 1, action: 'check', amount: 2, stack: 198, pot: 4, currentBet: 2, toAct: null, actionDeadline: null },
      },
      { type: 'table.closed', data: { reason: 'left' } },
    ];
    for (const profile of PROFILES) {
      const sent = encode(profile, frames);
      expect(sent).toHaveLength(frames.length - 3);
      expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(expectedOf(frames));
      expect(
        decodeFrames(profile, sent, WIRE_CODES)
          .filter((f) => f.type !== 'reply')
          .map((f) => (f as { seq: number }).seq),
      ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    const v1 = encode('compact-v1', frames).map((t) => JSON.parse(t));
    // The clock is the table's, so it is said once. A check leaves the pot and the bet as they were,
    // and ends the street.
    expect(v1[7]).toEqual({ type: 'time_bank', data: { seat: 1 } });
    expect(v1[8]).toEqual({ type: 'action.applied', data: { seat: 1, action: 'check', amount: 2, stack: 198 } });
    // A second snapshot names no seat again, and leaves out the values a bot's seat usually has.
    expect(v1[4].data.seats[1]).toEqual({ stack: 200, buyInTotal: 200 });
    const v2 = encode('compact-v2', frames).map((t) => JSON.parse(t));
    expect(v2[0][0]).toBe('table.snapshot');
    expect(v2[2]).toEqual([3, { a: 0, p: [CARDS_WIRE_CODES.enums.cards.indexOf('As'), CARDS_WIRE_CODES.enums.cards.indexOf('Kd')] }]);
    expect(v2[5]).toEqual({ id: 'c-1', status: 200 });
  });

  it('decodes back into the JSON stream of whole simulated tables, for the human and a spectator', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 8 }), fc.integer(), (seed, bots, human) => {
        const sim = new TableSim({ seed, bots }, wildHuman, prng(human));
        sim.runHands(6);
        sim.reconnect();
        for (const viewer of ['human', 'spectator']) {
          const frames = sim.frames
            .get(viewer)!
            .map((f) => ({ type: f.type, data: f.type === 'table.snapshot' ? { ...(f.data as object), wire: 'x' } : f.data }));
          for (const profile of PROFILES) {
            const sent = encode(profile, frames);
            expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(compactStreamOf(frames));
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  // These generate anything the rules might send and more: values that a code could be mistaken for
  // (letters, `~`, enum words, card strings, numbers where words go), and sticky fields that come
  // and go.
  const word = fc.constantFrom('a', 'b', '~', '~a', 'Z', 'fold', 'river', 'As', 'Td', 'left', 'playing', 'json', 'compact-v2', 'Ann', '');
  const key = fc.oneof(fc.constantFrom(...CARDS_WIRE_CODES.keys), word, fc.string({ maxLength: 3 }));
  const leaf = fc.oneof(
    word,
    fc.integer({ min: -5, max: 60 }),
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
  const data = fc.oneof(fc.dictionary(key, value, { maxKeys: 6 }), value);
  const type = fc.oneof(fc.constantFrom(...CARDS_EVENT_TYPES), fc.constantFrom('room.state', 'question.open', 'unknown.type'));
  const event = fc.record({ type, data }) as fc.Arbitrary<WireEvent>;
  const reply = fc.record({
    type: fc.constant('reply' as const),
    id: fc.string({ maxLength: 4 }),
    status: fc.constantFrom(200, 400, 409),
    data: fc.dictionary(key, value, { maxKeys: 3 }),
  });
  // The same few frames are sent again and again, so that sticky fields and identical snapshots come up.
  const sequence = fc.tuple(
    fc.array(fc.oneof(event, reply as fc.Arbitrary<Sent>), { minLength: 1, maxLength: 8 }),
    fc.array(fc.nat(), { maxLength: 30 }),
    fc.dictionary(key, value, { maxKeys: 4 }),
  );

  it.each(PROFILES)('%s: the decoder inverts the encoder on random card-event sequences', (profile) => {
    fc.assert(
      fc.property(sequence, ([pool, picks, extra]) => {
        const frames: Sent[] = onWire([
          { type: 'table.snapshot', data: snapshot(extra) },
          ...pool,
          ...picks.map((i) => pool[i % pool.length]),
        ]);
        const sent = encode(profile, frames);
        expect(decodeFrames(profile, sent, WIRE_CODES)).toEqual(expectedOf(frames));
      }),
      { numRuns: 300 },
    );
  });
});
