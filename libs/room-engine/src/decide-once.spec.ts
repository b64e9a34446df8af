import { ReplyFrame, RoomException } from '@app/protocol';
import { actorDeps } from '../test/actor-deps';
import { tally, TallyCommand, TallyState } from '../test/tally.game';
import { Viewer } from './audience';
import { Clock } from './clock';
import { GameRules } from './game-rules';
import { RoomActor } from './room-actor';
import { JournalInput, JournalStep } from './room-store';
import { VirtualScheduler } from './virtual-scheduler';

// These tests count how many times the rules decide each command on its way through a live room.
// They use the tally game's rules with a counter, on virtual time, and a stand-in store whose
// statements the test answers. A command meets the state the statements in flight leave. While a
// statement is out, the gate may also ask about the confirmed state, to refuse at once what is
// refused either way. Each state a command meets is decided once, whoever asks: the gate, the
// check of the waiting commands after a statement, or the batch itself.

const T0 = 1_700_000_000_000;
/** A total above this is refused, so a command can be refused by one state and taken by another. */
const CAP = 5;

let scheduler: VirtualScheduler;
let clock: Clock;
beforeEach(() => {
  scheduler = new VirtualScheduler();
  clock = scheduler.clock(T0);
});

/** Tally's rules with a cap on the total, every `decide` counted by command id, and the `batchKey` given. */
function countedTally(batchKey: GameRules<TallyState, TallyCommand>['batchKey']) {
  const decided = new Map<string, number>();
  const rules: GameRules<TallyState, TallyCommand> = {
    ...tally,
    batchKey,
    decide(state, actor, command, ctx) {
      decided.set(command.id, (decided.get(command.id) ?? 0) + 1);
      if (command.type === 'tally.add' && state.total + command.data.n > CAP)
        throw new RoomException('over_cap', `the total may not pass ${CAP}`, { status: 409 });
      return tally.decide(state, actor, command, ctx);
    },
  };
  return { rules, decided };
}

/** A store whose statements wait until the test answers them, in the order they were sent. */
function heldStore() {
  const statements: { step: JournalStep; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const store = {
    append: (step: JournalStep) => new Promise<void>((resolve, reject) => statements.push({ step, resolve, reject })),
  };
  return { store, statements };
}

function openRoom(
  rules: GameRules<TallyState, TallyCommand>,
  store: { append: (step: JournalStep) => Promise<void> },
  journal: JournalInput[] = [],
) {
  const initial: TallyState = { code: 'ABCDEF', seats: ['p1', 'p2', 'p3'], total: 0, closed: false };
  return RoomActor.restore(
    { code: 'ABCDEF', roomId: 'room-1', openedAt: T0 },
    rules,
    { state: initial, journal, replies: [] },
    actorDeps(store, { clock, scheduler }),
  );
}

function player(seat: string) {
  const replies: ReplyFrame[] = [];
  const v: Viewer = {
    socketId: seat,
    role: 'player',
    seat,
    wire: 'json',
    sendEvent: () => undefined,
    sendReply: (r) => replies.push(r),
    close: () => undefined,
  };
  return { v, replies };
}

const add = (id: string, n: number) => ({ id, type: 'tally.add', data: { n } });
const now = () => ({ at: clock.now(), hr: scheduler.now() });
const answers = (...ps: ReturnType<typeof player>[]) => ps.flatMap((p) => p.replies.map((r) => [r.id, r.status, r.data ?? r.error?.code]));

/**
 * Opens a room with three seated players in which every command is its own batch (so each sends
 * its own statement). p1's command 'a', adding `n`, has already been sent, and its statement is
 * out, unanswered.
 */
async function statementOut(n: number) {
  const { rules, decided } = countedTally(() => null);
  const { store, statements } = heldStore();
  const r = openRoom(rules, store);
  const ps = ['p1', 'p2', 'p3'].map(player);
  for (const p of ps) r.attach(p.v);
  r.submit(ps[0].v, add('a', n), now());
  await scheduler.flush();
  expect(statements).toHaveLength(1);
  return { r, decided, statements, ps };
}

describe('a command is decided once for each state it meets', () => {
  it('decides once each command pipelined behind a statement in flight, whether the gate or the check after a statement saw it first', async () => {
    const { r, decided, statements, ps } = await statementOut(1);
    const [p1, p2, p3] = ps;
    // This command arrives alone while a statement is out, so the gate asks the rules about it.
    r.submit(p2.v, add('b', 1), now());
    // These queue behind it, and the rules are asked about them once the statement ahead of them has gone.
    r.submit(p3.v, add('c', 1), now());
    r.submit(p1.v, add('d', 1), now());
    await scheduler.flush();
    expect(statements).toHaveLength(4);
    expect(answers(p1, p2, p3)).toEqual([]);
    for (const s of statements) s.resolve();
    await scheduler.flush();
    expect(answers(p1, p2, p3)).toEqual([
      ['a', 200, { total: 1 }],
      ['d', 200, { total: 4 }],
      ['b', 200, { total: 2 }],
      ['c', 200, { total: 3 }],
    ]);
    expect(Object.fromEntries(decided)).toEqual({ a: 1, b: 1, c: 1, d: 1 });
    // The journal those statements hold rebuilds the same room.
    const journal = statements.flatMap((s) => s.step.inputs);
    expect(openRoom(tally, heldStore().store, journal).snapshot).toEqual(r.snapshot);
    r.dispose();
  });

  it('decides a command refused by the state in flight but taken by the confirmed one once against each, not again in its turn', async () => {
    const { r, decided, statements, ps } = await statementOut(4);
    const [p1, p2] = ps;
    // Both states refuse this command, so it is answered at once.
    r.submit(p2.v, add('never', 9), now());
    // 4 + 3 passes the cap but 0 + 3 does not, so the command is not refused at once; it waits for its turn.
    r.submit(p2.v, add('b', 3), now());
    await scheduler.flush();
    expect(answers(p1, p2)).toEqual([['never', 409, 'over_cap']]);
    statements[0].resolve();
    await scheduler.flush();
    expect(answers(p1, p2)).toEqual([
      ['a', 200, { total: 4 }],
      ['never', 409, 'over_cap'],
      ['b', 409, 'over_cap'],
    ]);
    expect(Object.fromEntries(decided)).toEqual({ a: 1, b: 2, never: 2 });
    expect(r.snapshot.total).toBe(4);
    r.dispose();
  });

  it('decides afresh a command whose turn comes on another state: the statement it was asked about behind failed', async () => {
    const { r, decided, statements, ps } = await statementOut(1);
    const [p1, p2] = ps;
    r.submit(p2.v, add('b', 2), now());
    // The statement fails before b's turn. The room goes back to what the database has, and b is decided on that.
    statements[0].reject(new Error('the statement failed'));
    await scheduler.flush();
    statements[1].resolve();
    await scheduler.flush();
    expect(answers(p1, p2)).toEqual([
      ['a', 503, 'database_unavailable'],
      ['b', 200, { total: 2 }],
    ]);
    expect(Object.fromEntries(decided)).toEqual({ a: 1, b: 2 });
    expect(r.snapshot.total).toBe(2);
    r.dispose();
  });

  it('decides a batch once when a command in it has no budget left: that one gets 503, the ones behind are decided without it', async () => {
    const { rules, decided } = countedTally(tally.batchKey);
    const appended: JournalStep[] = [];
    const r = openRoom(rules, { append: async (step) => void appended.push(step) });
    const [p1, p2] = ['p1', 'p2'].map(player);
    r.attach(p1.v);
    r.attach(p2.v);
    // This command arrived long ago and waited behind a stalled statement, so its budget is spent.
    r.submit(p1.v, add('stale', 1), { at: clock.now(), hr: scheduler.now() - 5000 });
    r.submit(p2.v, add('fresh', 2), now());
    await scheduler.flush();
    expect(answers(p1, p2)).toEqual([
      ['stale', 503, 'database_unavailable'],
      ['fresh', 200, { total: 2 }],
    ]);
    expect(Object.fromEntries(decided)).toEqual({ stale: 1, fresh: 1 });
    expect(appended.flatMap((s) => s.inputs.filter((i) => i.kind === 'command').map((i) => i.kind === 'command' && i.commandId))).toEqual([
      'fresh',
    ]);
    r.dispose();
  });
});
