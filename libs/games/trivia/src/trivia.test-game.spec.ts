import fc from 'fast-check';
import { ScriptStep, testGame } from '@app/room-engine/testing';
import { DECK } from '../test/trivia.history';
import { KINDS_DECK, TYPED } from '../test/trivia.kinds-deck';
import { triviaGame } from './trivia.game';
import { TriviaState } from './trivia.types';

// These tests play trivia through testGame(): a host, and players who join, answer, leave and vote
// for a rematch at any moment. They check that the journal rebuilds the room after every step, and
// that each command costs one statement.

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
        // The question closes once every connected player has answered, so p2's second answer is late.
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

  describe('with a deck of every kind (PROTOCOL.md section 13)', () => {
    const kinds = { id: 'deck-k', items: KINDS_DECK };
    const hostPaced = { ...settings, questionCount: 5, pace: 'host', order: 'deck', maxPlayers: 4 };
    const next = (at: number): ScriptStep => ({ at, command: 'room.next' });
    const answerWith = (at: number, seat: string, question: number, data: object): ScriptStep => ({
      at,
      seat,
      command: 'room.answer',
      data: { question, ...data },
    });
    /** Every text a seat typed in the current game. No frame to anyone else may hold one of them. */
    const typedBy = (state: TriviaState, seat: string): string[] =>
      [...(state.game?.answers ?? []), ...(state.game?.closed.flat() ?? [])]
        .filter((a) => a.playerId === seat && 'text' in a)
        .map((a) => (a as { text: string }).text);

    it('plays it at the host’s pace with a late arrival: one statement a command, the journal rebuilds it, typed answers reach nobody else', async () => {
      const report = await testGame(triviaGame, {
        settings: hostPaced,
        deck: kinds,
        secretOf: typedBy,
        steps: [
          join(0, 'p1'),
          join(10, 'p2'),
          { at: 50, connect: 'p1' },
          { at: 50, connect: 'p2' },
          { at: 100, command: 'room.start' },
          answerWith(1000, 'p1', 0, { choice: 1 }),
          answerWith(1200, 'p2', 0, { choice: 0 }),
          // The reveal waits for the host, far past its 2 s.
          next(30_000),
          join(30_500, 'p3'),
          { at: 30_600, connect: 'p3' },
          // p3 joined during question 1, so p3 plays from question 2.
          answerWith(31_000, 'p3', 1, { choice: 0 }),
          answerWith(31_000, 'p1', 1, { choice: 0 }),
          answerWith(31_100, 'p2', 1, { choice: 1 }),
          next(32_000),
          answerWith(33_000, 'p1', 2, { choices: [1, 0] }),
          answerWith(33_100, 'p2', 2, { choice: 1 }),
          answerWith(33_200, 'p2', 2, { choices: [1] }),
          answerWith(33_300, 'p3', 2, { choices: [0, 1, 2] }),
          next(34_000),
          answerWith(35_000, 'p1', 3, { choice: 2 }),
          // The host closes the poll before p2 and p3 answer.
          next(36_000),
          next(37_000),
          answerWith(38_000, 'p1', 4, { text: TYPED[0] }),
          answerWith(38_100, 'p2', 4, { text: TYPED[3] }),
          answerWith(38_200, 'p3', 4, { text: TYPED[4] }),
          next(39_000),
          { at: 120_000, wait: true },
        ],
      });
      expect(report).toMatchObject({ accepted: 21, statementsPerCommand: { 'room.start': 1, 'room.answer': 1, 'room.next': 1 } });
      expect(report.refused).toEqual({ not_in_game: 1, wrong_answer_kind: 1 });
      expect(report.framesChecked).toBeGreaterThan(0);
    });

    it('keeps every promise whatever the players send, at either pace, with late arrivals (property)', async () => {
      const seat = fc.constantFrom('p1', 'p2', 'p3');
      const step = fc.oneof(
        fc.record({ kind: fc.constant('join' as const), seat }),
        fc.record({ kind: fc.constant('connect' as const), seat }),
        fc.record({ kind: fc.constant('start' as const) }),
        fc.record({ kind: fc.constant('next' as const) }),
        fc.record({
          kind: fc.constant('answer' as const),
          seat,
          question: fc.nat(5),
          data: fc.oneof(
            fc.record({ choice: fc.nat(4) }),
            fc.record({ choices: fc.uniqueArray(fc.nat(4), { minLength: 1, maxLength: 3 }) }),
            // Each seat types its own texts, so that one seat's answer is never another's by chance.
            fc.record({ text: fc.constantFrom(...TYPED) }),
          ),
        }),
        fc.record({ kind: fc.constant('rematch' as const), seat, vote: fc.boolean() }),
        fc.record({ kind: fc.constant('leave' as const), seat }),
      );
      const timed = fc.array(fc.record({ after: fc.oneof(fc.nat(100), fc.nat(12_000)), step }), { maxLength: 30 });
      await fc.assert(
        fc.asyncProperty(fc.constantFrom('clock', 'host'), timed, async (pace, plan) => {
          let at = 0;
          const steps = plan.map(({ after, step: s }): ScriptStep => {
            at += after;
            if (s.kind === 'join') return join(at, s.seat);
            if (s.kind === 'connect') return { at, connect: s.seat };
            if (s.kind === 'start') return { at, command: 'room.start' };
            if (s.kind === 'next') return next(at);
            if (s.kind === 'answer') {
              const data = 'text' in s.data ? { text: `${s.seat} ${s.data.text}` } : s.data;
              return answerWith(at, s.seat, s.question, data);
            }
            if (s.kind === 'rematch') return { at, seat: s.seat, command: 'room.rematch', data: { vote: s.vote } };
            return { at, seat: s.seat, command: 'room.leave' };
          });
          await testGame(triviaGame, { settings: { ...hostPaced, pace }, deck: kinds, steps, secretOf: typedBy });
        }),
        { numRuns: RUNS },
      );
    });
  });
});
