import { type CodeTable, codeTable, encodeCompactEvent, type GameCodes, WireMemory } from '@game-rooms/client';
import { CARDS_WIRE } from '../cards/src/cards.wire';
import { TICTACTOE_WIRE } from '../tictactoe/src/tictactoe.wire';
import { TRIVIA_WIRE } from '../trivia/src/trivia.wire';
import { WIRE_CODES } from './index';
import { CARDS_CODES_BY_HAND, TICTACTOE_CODES_BY_HAND, TRIVIA_CODES_BY_HAND } from './test/codes-by-hand';

// The codes are now derived from the games' schemas. These tests hold them to the tables that were
// written by hand before, because every compact-v2 and compact-v3 client in the field decodes with those.

/**
 * The table as JSON with each record's keys sorted. A record is looked up by name, so its key order
 * carries no meaning, but a list's order does.
 */
function canonical(codes: GameCodes): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
    );
  };
  return JSON.stringify(sorted(codes));
}

const ID = 'a3b9e0c4-5d2f-4e8a-b1c7-9d0e2f3a4b55';

/** Frames of every event type of each game, with every enum and id the codes know. */
const FRAMES: Record<string, [string, unknown][]> = {
  trivia: [
    [
      'room.state',
      {
        code: 'K7QMPD',
        phase: 'question',
        wire: 'compact-v2',
        you: { role: 'player', playerId: ID, answer: { question: 0, choice: 1 }, rematchVote: true },
        host: { name: 'H' },
        players: [{ id: ID, name: 'P', connected: true, score: 0 }],
        settings: { deckId: 'd', questionCount: 2, secondsPerQuestion: 10, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 },
        serverTime: 1,
        question: { index: 0, total: 2, text: 'Q', choices: ['a', 'b'], closesAt: 9, answered: 0, of: 1 },
        resultsId: 'r',
        rematch: { closesAt: 5, voted: 1, of: 2, decided: { accepted: true, playerIds: [ID] } },
      },
    ],
    ['player.joined', { player: { id: ID, name: 'P', connected: true, score: 0 } }],
    ['player.left', { playerId: ID, reason: 'kicked' }],
    ['player.presence', { playerId: ID, connected: false }],
    ['question.open', { index: 1, total: 2, text: 'Q', choices: ['a'], closesAt: 20, serverTime: 10 }],
    ['question.progress', { index: 1, answered: 1, of: 2 }],
    ['question.closed', { index: 1, correct: 0, counts: [1], scores: [{ playerId: ID, points: 0, total: 5 }] }],
    ['game.finished', { standings: [{ playerId: ID, name: 'P', score: 5, correct: 1, rank: 1 }], resultsId: 'r' }],
    ['rematch.open', { closesAt: 30 }],
    ['rematch.decided', { accepted: false, playerIds: [ID] }],
    ['room.closed', { reason: 'expired' }],
  ],
  cards: [
    [
      'table.snapshot',
      {
        code: 'T1',
        phase: 'playing',
        wire: 'compact-v3',
        you: { role: 'player', seat: 0 },
        rules: { smallBlind: 1, bigBlind: 2, buyIn: 100, actionSeconds: 20 },
        seats: [
          { seat: 0, name: 'P', human: true, stack: 98, committed: 2, folded: false, allIn: false, connected: true, buyInTotal: 100 },
        ],
        handsPlayed: 1,
        serverTime: 1,
        hand: {
          number: 2,
          button: 0,
          street: 'flop',
          board: ['As', 'Kd', '2c'],
          pot: 4,
          currentBet: 2,
          minRaise: 2,
          toAct: 0,
          actionDeadline: 9,
        },
        yourCards: ['Th', '9h'],
      },
    ],
    ['table.rules', { smallBlind: 1, bigBlind: 2, buyIn: 100, actionSeconds: 20 }],
    ['hand.started', { number: 3, button: 1, blinds: [{ seat: 0, amount: 1 }], pot: 3, currentBet: 2, minRaise: 2 }],
    ['hole_cards.dealt', { seat: 0, cards: ['Qs', 'Jd'] }],
    [
      'action.applied',
      { seat: 0, action: 'all_in', amount: 98, stack: 0, pot: 100, currentBet: 98, toAct: null, actionDeadline: null, timeout: true },
    ],
    ['street.dealt', { street: 'river', board: ['As', 'Kd', '2c', '3h', '4s'], pot: 100 }],
    ['time_bank', { seat: 1, remainingMs: 500 }],
    [
      'hand.finished',
      {
        number: 3,
        pots: [{ amount: 100, winners: [{ seat: 0, amount: 100 }] }],
        shown: [{ seat: 0, cards: ['Qs', 'Jd'], rank: 'Straight' }],
        stacks: [{ seat: 0, stack: 200 }],
      },
    ],
    ['standings', { seats: [{ seat: 0, name: 'P', human: true, buyInTotal: 100, stack: 200, net: 100, hands: 3, connected: true }] }],
    ['table.closed', { reason: 'operator_closed' }],
  ],
  tictactoe: [
    [
      'ttt.state',
      {
        code: 'B1',
        phase: 'playing',
        board: ['X', '', 'O', '', '', '', '', '', ''],
        turn: 'X',
        moveBy: 5,
        winner: null,
        seats: [{ id: ID, name: 'A', mark: 'X', connected: true }],
        you: 'X',
      },
    ],
    ['ttt.joined', { seat: { id: ID, name: 'B', mark: 'O', connected: true }, moveBy: 5 }],
    ['ttt.moved', { cell: 4, mark: 'O' }],
    ['ttt.finished', { winner: 'draw' }],
    ['ttt.presence', { id: ID, connected: false }],
  ],
};

/** What one socket of each compact profile is sent for the game's frames, in order. */
function sent(table: CodeTable, kind: string): string[] {
  return (['compact-v1', 'compact-v2', 'compact-v3'] as const).flatMap((profile) => {
    const memory = new WireMemory(table, profile);
    return FRAMES[kind]!.map(([type, data]) => {
      const text = encodeCompactEvent(profile, memory, type, data);
      memory.remember(type, data);
      return `${profile} ${text}`;
    });
  });
}

describe('the compact codes derived from the games’ schemas', () => {
  it.each([
    ['trivia', TRIVIA_WIRE.codes, TRIVIA_CODES_BY_HAND],
    ['cards', CARDS_WIRE.codes, CARDS_CODES_BY_HAND],
    ['tictactoe', TICTACTOE_WIRE.codes, TICTACTOE_CODES_BY_HAND],
  ])('equal %s’s table as it was written by hand, list for list and byte for byte', (_kind, derived, byHand) => {
    expect(derived).toEqual(byHand);
    expect(canonical(derived)).toBe(canonical(byHand));
    // The lists whose order carries their meaning must be exactly as they were.
    expect(JSON.stringify(derived.keys)).toBe(JSON.stringify(byHand.keys));
    expect(JSON.stringify(Object.keys(derived.events))).toBe(JSON.stringify(Object.keys(byHand.events)));
  });

  it('make the version-2 table of trivia then cards, as the clients in the field know it', () => {
    expect(WIRE_CODES.version).toBe(2);
    expect(canonical({ ...WIRE_CODES, games: undefined } as never)).toBe(canonical({ ...codeTable(2, []), games: undefined } as never));
    expect(WIRE_CODES.games.map(canonical)).toEqual([TRIVIA_CODES_BY_HAND, CARDS_CODES_BY_HAND].map(canonical));
  });

  it.each(['trivia', 'cards', 'tictactoe'])('send %s’s frames as the hand-written table sent them, in every compact profile', (kind) => {
    const byHand = codeTable(2, [TRIVIA_CODES_BY_HAND, CARDS_CODES_BY_HAND, TICTACTOE_CODES_BY_HAND]);
    const derived = codeTable(2, [TRIVIA_WIRE.codes, CARDS_WIRE.codes, TICTACTOE_WIRE.codes]);
    const frames = sent(derived, kind);
    expect(frames).toEqual(sent(byHand, kind));
    // Every event type was sent (none was a no-op), so each one went through its code.
    expect(frames.filter((f) => f.startsWith('compact-v2 ['))).toHaveLength(FRAMES[kind]!.length);
  });
});
