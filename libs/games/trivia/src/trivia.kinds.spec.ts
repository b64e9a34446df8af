import fc from 'fast-check';
import { answer as answerChoice, asPlayer, ctx, DURATION, lobby, refusal, SETTINGS, startGame, T0 } from '../test/trivia.fixtures';
import { KINDS_DECK } from '../test/trivia.kinds-deck';
import { decide, onDeadline } from './trivia.rules';
import { normalizedText } from './trivia.kinds';
import { roomDeck } from './trivia.opening';
import { Given, Question, QuestionClosed, TriviaState } from './trivia.types';

// These tests play each kind of question through the rules (PROTOCOL.md section 13). They check
// what is right, what it scores, what the reveal counts, and which answers are refused.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);
const QUESTIONS = roomDeck(KINDS_DECK);
const byKind = (kind: string): Question => QUESTIONS.find((q) => (q.kind ?? 'choice') === kind)!;

/** A game of three players on this one question, which has been open since T0. */
function playing(q: Question): TriviaState {
  return startGame(lobby(3), T0, undefined, [q]).state;
}

function answerWith(state: TriviaState, seat: string, given: Given, now: number) {
  const data = 'choices' in given ? { question: 0, choices: [...given.choices] } : { question: 0, ...given };
  return decide(state, asPlayer(seat), { id: `${seat}-a`, type: 'room.answer', data }, ctx(now));
}

/** The points that section 3 gives a right answer `elapsed` ms into a question of `duration` ms. */
const points = (elapsed: number, duration: number) => Math.round(1000 * (1 - elapsed / duration / 2));

describe('question kinds', () => {
  describe(normalizedText.name, () => {
    it('ignores case, accents and runs of spaces, and trims', () => {
      expect(normalizedText('  Élan   VITAL ')).toBe('elan vital');
      expect(normalizedText('Ｐａｒｉｓ')).toBe('paris');
      expect(normalizedText('São\tPaulo')).toBe('sao paulo');
      expect(normalizedText('Lyon')).not.toBe(normalizedText('Lyons'));
    });

    it('reads an answer the same whatever its case, accents composed or not, and spacing (property)', () => {
      const spelling = fc.array(fc.record({ upper: fc.boolean(), spaces: fc.integer({ min: 1, max: 3 }), decomposed: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
      });
      fc.assert(
        fc.property(fc.constantFrom('Élan vital', 'Crème brûlée', 'São Paulo', 'naïve café'), spelling, (answer, how) => {
          const words = answer.split(' ').map((w, i) => {
            const h = how[i % how.length];
            const cased = h.upper ? w.toUpperCase() : w.toLowerCase();
            return h.decomposed ? cased.normalize('NFD') : cased;
          });
          const typed = words.join(' '.repeat(how[0].spaces)) + ' '.repeat(how[how.length - 1].spaces - 1);
          expect(normalizedText(typed)).toBe(normalizedText(answer));
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('scoring (property): right per kind, section 3’s points when right, none for a poll', () => {
    const elapsed = fc.integer({ min: 0, max: 240_000 });

    it('choice and truefalse: the one right choice', () => {
      fc.assert(
        fc.property(fc.constantFrom('choice', 'truefalse'), fc.nat(5), elapsed, (kind, pick, at) => {
          const q = byKind(kind) as Question & { choices: string[]; correct: number };
          const choice = pick % q.choices.length;
          const duration = (q.seconds ?? SETTINGS.secondsPerQuestion) * 1000;
          const t = Math.min(at, duration);
          const a = answerWith(playing(q), 'p1', { choice }, T0 + t).state.game!.answers[0];
          expect(a.correct).toBe(choice === q.correct);
          expect(a.points).toBe(choice === q.correct ? points(t, duration) : 0);
        }),
        { numRuns: RUNS },
      );
    });

    it('multi: every right choice and only those, in any order', () => {
      const q = byKind('multi') as Question & { choices: string[]; correct: number[] };
      const picks = fc.uniqueArray(fc.nat(q.choices.length - 1), { minLength: 1, maxLength: q.choices.length });
      fc.assert(
        fc.property(picks, elapsed, (choices, at) => {
          const t = Math.min(at, DURATION);
          const a = answerWith(playing(q), 'p1', { choices }, T0 + t).state.game!.answers[0];
          const exact = choices.length === q.correct.length && q.correct.every((c) => choices.includes(c));
          expect(a.correct).toBe(exact);
          expect(a.points).toBe(exact ? points(t, DURATION) : 0);
        }),
        { numRuns: RUNS },
      );
    });

    it('poll: never right, never a point, whatever is picked and whenever', () => {
      const q = byKind('poll');
      fc.assert(
        fc.property(fc.nat(3), elapsed, (choice, at) => {
          const a = answerWith(playing(q), 'p1', { choice }, T0 + Math.min(at, DURATION)).state.game!.answers[0];
          expect([a.correct, a.points]).toEqual([false, 0]);
        }),
        { numRuns: RUNS },
      );
    });

    it('text: right when it matches an accepted answer as people read it, on the question’s own time', () => {
      const q = byKind('text') as Question & { accepted: string[]; seconds: number };
      const typed = fc.oneof(
        fc.constantFrom('élan   VITAL', 'ELAN', 'elan vital', ' Elan ', 'Lyon', 'Bergson', 'vital élan', 'elanvital'),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '' && !/[\p{C}\p{Zl}\p{Zp}]/u.test(s)),
      );
      fc.assert(
        fc.property(typed, elapsed, (text, at) => {
          const t = Math.min(at, q.seconds * 1000);
          const a = answerWith(playing(q), 'p1', { text }, T0 + t).state.game!.answers[0];
          const right = q.accepted.some((x) => normalizedText(x) === normalizedText(text));
          expect(a.correct).toBe(right);
          expect(a.points).toBe(right ? points(t, q.seconds * 1000) : 0);
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('question.open', () => {
    it.each([
      ['choice', { index: 0, total: 1, text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome', 'Madrid'] }],
      ['truefalse', { kind: 'truefalse', choices: ['True', 'False'], seconds: 10 }],
      ['multi', { kind: 'multi', choices: ['2', '3', '4', '9'], image: '/api/images/img-primes' }],
      ['poll', { kind: 'poll', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] }],
      ['text', { kind: 'text', seconds: 30 }],
    ])('tells a %s question’s kind, own time and picture, and never its answer', (kind, shown) => {
      const q = byKind(kind);
      const open = startGame(lobby(2), T0, undefined, [q]).events[0];
      expect(open.data).toMatchObject(shown);
      expect(Object.keys(open.data as object).sort()).toEqual(
        [
          'index',
          'total',
          'text',
          'closesAt',
          'serverTime',
          ...Object.keys(shown).filter((k) => !['index', 'total', 'text'].includes(k)),
        ].sort(),
      );
      expect((open.data as { closesAt: number }).closesAt - T0).toBe((q.seconds ?? SETTINGS.secondsPerQuestion) * 1000);
    });
  });

  describe('the reveal', () => {
    /** Returns the reveal after these answers. It comes at once when everyone answered, or else at the deadline. */
    function closed(q: Question, answers: [string, Given][]): QuestionClosed {
      let state = playing(q);
      for (const [seat, given] of answers) state = answerWith(state, seat, given, T0 + 1000).state;
      if (state.phase !== 'reveal') state = onDeadline(state, state.game!.closesAt).state;
      return state.game!.lastReveal!;
    }

    it('counts a multi answer for each choice it picked, and gives the right choices', () => {
      const r = closed(byKind('multi'), [
        ['p1', { choices: [0, 1] }],
        ['p2', { choices: [1, 3] }],
        ['p3', { choices: [1] }],
      ]);
      expect(r.correct).toEqual([0, 1]);
      expect(r.counts).toEqual([1, 3, 0, 1]);
      expect(r.scores.map((s) => s.points > 0)).toEqual([true, false, false]);
    });

    it('counts a poll per choice and gives no right answer', () => {
      const r = closed(byKind('poll'), [
        ['p1', { choice: 2 }],
        ['p2', { choice: 2 }],
        ['p3', { choice: 0 }],
      ]);
      expect(r.correct).toBeNull();
      expect(r.counts).toEqual([1, 0, 2, 0]);
      expect(r.scores.map((s) => s.points)).toEqual([0, 0, 0]);
    });

    it('counts typed answers as right and wrong, gives the accepted answers, and holds no typed text', () => {
      const r = closed(byKind('text'), [
        ['p1', { text: 'élan   VITAL' }],
        ['p2', { text: 'Lyon' }],
      ]);
      expect(r.correct).toEqual(['Élan vital', 'Elan']);
      expect(r.counts).toEqual({ right: 1, wrong: 1 });
      expect(JSON.stringify(r)).not.toMatch(/VITAL|Lyon/);
    });

    it('counts a true/false question per choice, True and False', () => {
      const r = closed(byKind('truefalse'), [
        ['p1', { choice: 0 }],
        ['p2', { choice: 1 }],
        ['p3', { choice: 0 }],
      ]);
      expect([r.correct, r.counts]).toEqual([0, [2, 1]]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['a choice to a text question', 'text', { choice: 0 }],
      ['a text to a choice question', 'choice', { text: 'Paris' }],
      ['a list of choices to a true/false question', 'truefalse', { choices: [0] }],
      ['one choice to a multi question', 'multi', { choice: 1 }],
      ['a text to a poll', 'poll', { text: 'Summer' }],
    ] as [string, string, Given][])('refuses %s with 400 wrong_answer_kind, recording nothing', (_what, kind, given) => {
      const state = playing(byKind(kind));
      expect(refusal(() => answerWith(state, 'p1', given, T0 + 1000))).toEqual({ code: 'wrong_answer_kind', status: 400 });
    });

    it('refuses a multi answer with a choice the question does not have, with 400 choice_out_of_range', () => {
      expect(refusal(() => answerWith(playing(byKind('multi')), 'p1', { choices: [0, 4] }, T0 + 1000))).toEqual({
        code: 'choice_out_of_range',
        status: 400,
      });
    });

    it('says the question is closed (409) before it says the answer does not fit (400)', () => {
      const state = playing(byKind('text'));
      const late = state.game!.closesAt + 1;
      expect(refusal(() => answerWith(state, 'p1', { choice: 9 }, late))).toEqual({ code: 'question_closed', status: 409 });
    });

    it('still takes a choice question’s answers as before', () => {
      const state = playing(byKind('choice'));
      expect(answerChoice(state, 'p1', 0, 1, T0 + 1000).reply).toEqual({ accepted: true });
    });
  });
});
