import fc from 'fast-check';
import { expectRebuilt } from '../../test/journaled-room';
import { LiveRoom, Scenario, scenarioArb } from './trivia.history';

// Issue 21: a room is its journal. Kill a room at any moment (kill -9) and rebuild it by replaying
// what the engine journaled through the same rules, and you get the room that stopped, replies
// included. This holds whether the replay starts from the room's opening or from its latest
// snapshot (the state as JSON, taken when a game finished). The histories are random but plausible.
// They contain restarts (deadlines taken late, everyone disconnected) and holds of the clocks
// (failed writes). What reaches the real database is tested end to end in apps/game-server/test.

// This takes a few seconds in all. PROPERTY_RUNS=5000 digs deeper.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

/**
 * A history stopped after some step. With extraMs 0 it stops before any deadline after the last
 * input. Otherwise it stops `extraMs` later still: the deadlines due meanwhile fired live, and they
 * fire on the replayed room too.
 */
const killArb = fc.record({ scenario: scenarioArb, cut: fc.nat(), extraMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40_000 })) });

function playUntilKilled({ scenario, cut, extraMs }: { scenario: Scenario; cut: number; extraMs: number }): LiveRoom {
  const live = new LiveRoom(scenario).playSteps(cut % (scenario.steps.length + 1));
  live.room.advanceTo(live.now + extraMs);
  return live;
}

describe('trivia recovery (property)', () => {
  it('A: a room replayed from its journal is the room that was killed, with every reply it gave', () => {
    fc.assert(
      fc.property(killArb, (kill) => {
        const live = playUntilKilled(kill);
        expectRebuilt(live.room, 'opening');
        // Every restart along the way found the room that had stopped.
        expect(live.room.divergences).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('B: replayed from the latest snapshot (the state as JSON at a finished game), it is the same room', () => {
    fc.assert(
      fc.property(killArb, (kill) => {
        expectRebuilt(playUntilKilled(kill).room, 'snapshot');
      }),
      { numRuns: RUNS },
    );
  });

  it('C: every rule decides the same on the JSON of a state as on the state, mid-game or not', () => {
    fc.assert(
      fc.property(killArb, (kill) => {
        expect(playUntilKilled(kill).room.divergences).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('D: only a presence change that changed the room is journaled', () => {
    fc.assert(
      fc.property(killArb, (kill) => {
        const live = playUntilKilled(kill);
        // The histories flip a seat's presence; a flip to what it already is would be a no-op.
        const seats = new Map<string, boolean>();
        for (const input of live.room.journal) {
          if (input.kind === 'signal' && input.body.kind === 'resumed') seats.clear();
          if (input.kind !== 'signal' || input.body.kind !== 'presence') continue;
          expect(seats.get(input.body.seat) ?? false).not.toBe(input.body.connected);
          seats.set(input.body.seat, input.body.connected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  describe('E: invariants of the rules', () => {
    const historyArb = scenarioArb.map((scenario) => new LiveRoom(scenario).playSteps(scenario.steps.length));

    it('a score is the sum of the points of the accepted answers to the closed questions', () => {
      fc.assert(
        fc.property(historyArb, (live) => {
          const { state } = live;
          // The last accepted rematch reset the scores; a game that is running or finished holds them.
          if (!state.game) return;
          const game = state.game;
          const closedUpTo = state.phase === 'question' ? game.index - 1 : game.index;
          for (const seat of state.players.filter((p) => game.roster.includes(p.id))) {
            const mine = live.answers.filter(
              (a) => a.gameId === game.id && a.answer.playerId === seat.id && a.answer.question <= closedUpTo,
            );
            expect(seat.score).toBe(mine.reduce((sum, a) => sum + a.answer.points, 0));
            expect(seat.correct).toBe(mine.filter((a) => a.answer.correct).length);
          }
        }),
        { numRuns: RUNS },
      );
    });

    it('no player is both seated (or in the roster) and released', () => {
      fc.assert(
        fc.property(historyArb, (live) => {
          const seated = live.state.players.map((p) => p.id);
          expect(seated.filter((id) => live.released.has(id))).toEqual([]);
          expect((live.state.game?.roster ?? []).filter((id) => live.released.has(id) || !seated.includes(id))).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    });

    it('every question that opened closes exactly once, and only the open one has not', () => {
      fc.assert(
        fc.property(historyArb, (live) => {
          const opened = new Map<string, number>();
          const closed = new Map<string, number>();
          let game = 0;
          for (const e of live.events) {
            const index = (e.data as { index?: number }).index;
            if (e.type === 'question.open' && index === 0) game++;
            if (e.type === 'question.open') opened.set(`${game}/${index}`, (opened.get(`${game}/${index}`) ?? 0) + 1);
            if (e.type === 'question.closed') closed.set(`${game}/${index}`, (closed.get(`${game}/${index}`) ?? 0) + 1);
          }
          const stillOpen = live.state.phase === 'question' ? `${game}/${live.state.game!.index}` : undefined;
          for (const [key, n] of opened) {
            expect(n).toBe(1);
            expect(closed.get(key) ?? 0).toBe(key === stillOpen ? 0 : 1);
          }
          expect([...closed.keys()].filter((k) => !opened.has(k))).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    });

    it('a hold of the clocks keeps the phase and moves the next deadline on by exactly the time it held', () => {
      fc.assert(
        fc.property(historyArb, (live) => {
          for (const { ms, before, after } of live.holds) {
            expect(after.phase).toBe(before.phase);
            expect(after.due).toBe(before.due === undefined ? undefined : before.due + ms);
          }
        }),
        { numRuns: RUNS },
      );
    });

    it("a finished game's summary has every question and the standings game.finished told", () => {
      fc.assert(
        fc.property(historyArb, (live) => {
          const finished = live.events.filter((e) => e.type === 'game.finished');
          expect(live.summaries.length).toBe(finished.length);
          live.summaries.forEach((summary, i) => {
            expect(summary.standings).toEqual((finished[i].data as { standings: unknown }).standings);
            expect(summary.questions.map((q) => q.index)).toEqual(summary.questions.map((_q, k) => k));
            for (const q of summary.questions) for (const a of q.answers) expect(a.name).toBe(`Name ${a.playerId}`);
          });
        }),
        { numRuns: RUNS },
      );
    });
  });
});
