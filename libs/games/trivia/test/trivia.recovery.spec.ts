import { ReplyFrame } from '@app/protocol';
import { RoomActor, RoomActorDeps, seededRandom, Viewer } from '@app/room-engine';
import fc from 'fast-check';
import { restoreTrivia, resumed, TriviaRecord, TriviaResult, triviaRules, TriviaState, Write } from '../src';
import { EXPIRY_SECONDS, LiveRoom, Scenario, scenarioArb, SEED, T0 } from './trivia.history';

// Issue 9: a room killed at any moment (kill -9) and rebuilt from what was committed is the room
// that stopped. Histories are random but plausible; PostgreSQL is a model of what
// libs/persistence writes and loadRooms reads (trivia.database.model.ts). What reaches the real
// database is tested end to end in apps/game-server/test.

// A few seconds in all; PROPERTY_RUNS=5000 digs deeper.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

/**
 * A history stopped after some step (extraMs 0: before any deadline after the last input), or
 * later still by `extraMs` (the deadlines due meanwhile fired live, and fire on the restored room).
 */
const killArb = fc.record({ scenario: scenarioArb, cut: fc.nat(), extraMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40_000 })) });

function playUntilKilled({ scenario, cut, extraMs }: { scenario: Scenario; cut: number; extraMs: number }): { live: LiveRoom; killedAt: number } {
  const live = new LiveRoom(scenario).playSteps(cut % (scenario.steps.length + 1));
  const killedAt = live.now + extraMs;
  live.advanceTo(killedAt);
  return { live, killedAt };
}

/** A fresh process rebuilds the room at `now` from what the database model holds. */
function restoreAt(live: LiveRoom, now: number) {
  const commits: Write[] = [];
  const errors: unknown[] = [];
  const deps: RoomActorDeps<Write, TriviaResult> = {
    store: {
      commit: async (writes) => (commits.push(...writes), writes.map(() => ({ kind: 'done' }) as TriviaResult)),
      recordLateDeadline: async () => undefined,
    },
    clock: { now: () => now },
    observer: { command: () => undefined },
    mailboxDepth: 8,
    passivateAfterMs: 60_000,
    commandBudgetMs: 1000,
    seed: SEED,
    committedStatements: 0,
    onDispose: () => undefined,
    log: (level, msg, fields) => level === 'error' && errors.push({ msg, ...fields }),
  };
  const record = live.db.load();
  const actor = RoomActor.restore({ code: record.code, roomId: record.roomId, openedAt: T0 }, triviaRules, restoreTrivia(record, EXPIRY_SECONDS), deps);
  return { actor, commits, errors, record };
}

/**
 * What depends on an order the record does not keep (see comparable): the current question closed
 * early in the millisecond a seat left, and the departure did not cause it (its own statement
 * would have recorded the close).
 */
function ambiguities(live: LiveRoom, record: TriviaRecord, state: TriviaState): Ambiguities {
  const game = record.lastGame;
  const close = game?.closes.find((c) => c.index === state.game?.index);
  const closedBy = live.committed.find(({ write: w }) => {
    const c = w.kind === 'closeQuestion' ? w.close : w.kind === 'recordAnswers' || w.kind === 'releasePlayers' ? w.close : undefined;
    return c !== undefined && c.gameId === game?.id && c.index === close?.index;
  });
  return {
    reveal: close !== undefined && closedBy?.write.kind !== 'releasePlayers' && record.players.some((p) => p.left?.at === close.at),
  };
}

interface Ambiguities {
  readonly reveal: boolean;
}

/**
 * The deadlines that fell between the last recorded input and the kill fired live, with nothing
 * to record unless they wrote (a finish, an expiry); the restored room takes them here the same
 * way, each at the moment it was due, before it is compared.
 */
function fireDue(state: TriviaState, until: number): TriviaState {
  for (let i = 0; i < 100; i++) {
    const due = triviaRules.nextDeadline(state);
    if (due === undefined || due >= until) return state;
    const next = triviaRules.onSignal(state, { kind: 'deadline' }, { now: due, random: seededRandom(SEED, due) }).state;
    if (next === state) return state;
    state = next;
  }
  return state;
}

/**
 * What must survive a restart. Presence is not written: `resumed` marks every seat disconnected on
 * both sides. These legitimately differ and are left out:
 * - a closed room comes back as a closed shell (its phase only: it takes no command and leaves
 *   memory as soon as nobody watches);
 * - in the lobby after an accepted rematch, the live room keeps the decided rematch until the next
 *   game starts (a late vote gets rematch_closed), the restored lobby has none (wrong_phase): both 409;
 * - while a game runs, the expiry is not used (nothing expires mid-game; finishing sets it anew):
 *   the live room still holds the lobby's, the restored one counts from the game's start;
 * - the reveal of a question that closed early in the same millisecond as a seat left
 *   (`ambiguities.reveal`): question_closes does not say whether the close came before the
 *   departure (an answer's or a socket's close, then a leave: the leaver is in the reveal) or was
 *   caused by it (the leaver is not); the replay takes the departure first. Only the reveal's
 *   counts and per-question points, shown to a client that connects during those seconds, differ;
 *   the seats' scores do not. Only one seat's inputs share a millisecond here (its socket closes
 *   the question, then it leaves): different seats' never do, see LiveRoom.turnOf.
 * Played question ids are what the next draw avoids, a set: the live list repeats a question that a
 * small deck had to deal again, and its order is the database's (array_agg without ORDER BY).
 */
function comparable(state: TriviaState, ambiguous: Ambiguities = { reveal: false }): unknown {
  const s = resumed(state);
  if (s.phase === 'closed') return { phase: s.phase };
  return {
    ...s,
    game: s.game && ambiguous.reveal ? { ...s.game, lastReveal: undefined } : s.game,
    playedQuestionIds: [...new Set(s.playedQuestionIds)].sort((a, b) => a - b),
    rematch: s.phase === 'lobby' ? undefined : s.rematch,
    expiresAt: s.phase === 'question' || s.phase === 'reveal' ? undefined : s.expiresAt,
  };
}

function fakeViewer(actor: { role: 'host' | 'player' | 'spectator'; seat?: string }) {
  const replies: ReplyFrame[] = [];
  const viewer: Viewer = { socketId: `resend-${actor.seat ?? actor.role}`, ...actor, wire: 'json', sendEvent: () => undefined, sendReply: (r) => replies.push(r), close: () => undefined };
  return { viewer, replies };
}

describe('trivia recovery (property)', () => {
  it('A: a room rebuilt from what was committed is the room that was killed', () => {
    fc.assert(
      fc.property(killArb, (kill) => {
        const { live, killedAt } = playUntilKilled(kill);
        const { actor, errors, record } = restoreAt(live, killedAt);
        // Read before the actor's catch-up runs (it is posted, not yet taken).
        const restored = fireDue(actor.snapshot, killedAt);
        actor.dispose();
        expect(errors).toEqual([]);
        const ambiguous = ambiguities(live, record, live.state);
        expect(comparable(restored, ambiguous)).toEqual(comparable(live.state, ambiguous));
      }),
      { numRuns: RUNS },
    );
  });

  it('B: an acknowledged command sent again after the restart gets its original reply and writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(killArb, async (kill) => {
        const { live, killedAt } = playUntilKilled(kill);
        // A closed room left memory live too: a resend finds no room either way.
        if (live.over) return;
        const { actor, commits } = restoreAt(live, killedAt);
        // loadRooms reads the last game and the seats that left since it started: what was
        // acknowledged before that (a kick in the lobby before any game, an earlier game's
        // commands) is not remembered after a restart. Resent, it is decided afresh: refused,
        // except a start or a vote resent a whole game later, which no client that resends on
        // reconnecting does.
        const since = live.lastStartSeq ?? Infinity;
        const resent: { expected: ReplyFrame; got: ReplyFrame[] }[] = [];
        for (const acks of live.acks.values()) {
          for (const ack of [...acks.values()].filter((a) => a.seq >= since)) {
            const { viewer, replies } = fakeViewer(ack.actor);
            actor.submit(viewer, ack.frame, { at: killedAt, hr: performance.now() });
            resent.push({ expected: ack.reply, got: replies });
          }
        }
        // Remembered replies are sent at once, before the room takes anything from its mailbox.
        const answered = resent.map((r) => r.got.slice());
        await actor.catchUp();
        actor.dispose();
        expect(answered).toEqual(resent.map((r) => [r.expected]));
        const resentIds = new Set(resent.map((r) => r.expected.id));
        expect(commits.flatMap(commandIdsOf).filter((id) => resentIds.has(id))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  describe('C: invariants of the rules', () => {
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
            const mine = live.answers.filter((a) => a.gameId === game.id && a.answer.playerId === seat.id && a.answer.question <= closedUpTo);
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
  });
});

/** The command ids a write carries: what a second execution of a resent command would write again. */
function commandIdsOf(write: Write): (string | null)[] {
  switch (write.kind) {
    case 'startGame':
      return [write.commandId];
    case 'recordAnswers':
      return write.answers.map((a) => a.commandId);
    case 'recordVotes':
      return [...write.votes.map((v) => v.commandId), write.departure?.commandId ?? null];
    case 'releasePlayers':
      return [write.departure.commandId];
    default:
      return [];
  }
}
