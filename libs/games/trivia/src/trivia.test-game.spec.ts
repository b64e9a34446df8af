import fc from 'fast-check';
import { ScriptStep, testGame } from '@app/room-engine/testing';
import { DECK } from '../test/trivia.history';
import { triviaGame } from './trivia.game';

// Trivia through testGame(): a host, players who join, answer, leave and vote for a rematch at
// any moment; the journal rebuilds the room after every step, and each command is one statement.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const deck = { id: 'deck-1', items: DECK };
const settings = { hostName: 'Quizmaster', questionCount: 3, secondsPerQuestion: 5, revealSeconds: 2, maxPlayers: 4, minPlayers: 1 };
const join = (at: number, seat: string): ScriptStep => ({ at, propose: 'join', args: { playerId: seat, name: `Player ${seat}` } });
const answer = (at: number, seat: string, question: number, choice: number): ScriptStep => ({
  at,
  seat,
  command: 'room.answer',
  data: { question, choice },
});

describe('trivia through testGame', () => {
  it('plays a whole game: joins, a start, answers on time and late, the reveal and the end', async () => {
    const report = await testGame(triviaGame, {
      settings,
      deck,
      steps: [
        join(0, 'p1'),
        join(10, 'p2'),
        { at: 50, connect: 'p1' },
        { at: 50, connect: 'p2' },
        { at: 100, command: 'room.start' },
        // The question closes once every connected player has answered: p2's second answer is late.
        answer(1000, 'p1', 0, 1),
        answer(1200, 'p2', 0, 0),
        answer(1300, 'p2', 0, 1),
        // The second question opens after the reveal (2 s) and closes 5 s later.
        answer(4000, 'p1', 1, 2),
        answer(9000, 'p2', 1, 0),
        { at: 60_000, wait: true },
      ],
    });
    expect(report).toMatchObject({ accepted: 6, statementsPerCommand: { 'room.start': 1, 'room.answer': 1 } });
    expect(report.refused).toEqual({ question_closed: 2 });
    expect(report.snapshots).toBeGreaterThan(0);
  });

  it('keeps every promise whatever the players send, and whenever (property)', async () => {
    const seat = fc.constantFrom('p1', 'p2', 'p3');
    const step = fc.oneof(
      fc.record({ kind: fc.constant('join' as const), seat }),
      fc.record({ kind: fc.constant('connect' as const), seat }),
      fc.record({ kind: fc.constant('start' as const) }),
      fc.record({ kind: fc.constant('answer' as const), seat, question: fc.nat(3), choice: fc.nat(3) }),
      fc.record({ kind: fc.constant('rematch' as const), seat, vote: fc.boolean() }),
      fc.record({ kind: fc.constant('leave' as const), seat }),
    );
    const timed = fc.array(fc.record({ after: fc.oneof(fc.nat(100), fc.nat(6000)), step }), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(timed, async (plan) => {
        let at = 0;
        const steps = plan.map(({ after, step: s }): ScriptStep => {
          at += after;
          if (s.kind === 'join') return join(at, s.seat);
          if (s.kind === 'connect') return { at, connect: s.seat };
          if (s.kind === 'start') return { at, command: 'room.start' };
          if (s.kind === 'answer') return answer(at, s.seat, s.question, s.choice);
          if (s.kind === 'rematch') return { at, seat: s.seat, command: 'room.rematch', data: { vote: s.vote } };
          return { at, seat: s.seat, command: 'room.leave' };
        });
        await testGame(triviaGame, { settings, deck, steps });
      }),
      { numRuns: RUNS },
    );
  });
});
