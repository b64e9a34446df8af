import { CommandFrame, ReplyFrame, Role } from '@app/protocol';
import fc from 'fast-check';
import { actorDeps } from '../test/actor-deps';
import { rounds, RoundsState } from '../test/rounds.game';
import { Viewer } from './audience';
import { ReplyMemoryBounds } from './reply-memory';
import { RoomActor } from './room-actor';
import { JournalStep, Restored, RoomStore } from './room-store';
import { VirtualScheduler } from './virtual-scheduler';

// PROTOCOL.md section 5 says that "an acknowledged id sent again gets its original reply". What a
// room answers to a resent id must not depend on whether the room was rebuilt in between: the
// memory a snapshot carries, and the journal after it, rebuild exactly the window the live room
// had. These tests check it on a toy game, with a stand-in store that keeps what each statement
// carried as PostgreSQL does (the latest snapshot, and the inputs of the statements after it).
// apps/game-server/test/reply-memory.e2e-spec.ts checks it end to end, with kill -9 of a real
// server.

const T0 = 1_700_000_000_000;
const SEATS = ['p1', 'p2', 'p3'];
const START: RoundsState = { code: 'ROUNDS', seats: SEATS, gone: [], total: 0, round: 0, cheers: 0 };

type Who = 'p1' | 'p2' | 'p3' | 'host' | 'operator' | 'watcher';
const action = fc.record({
  who: fc.constantFrom<Who>('p1', 'p2', 'p3', 'p1', 'p2', 'host', 'operator', 'watcher'),
  kind: fc.constantFrom('add', 'add', 'add', 'negative', 'end', 'leave', 'cheer', 'ping'),
  n: fc.integer({ min: 0, max: 40 }),
  // Only a few ids per seat, so that ids are resent: after their reply, while in flight, and after a refusal.
  id: fc.integer({ min: 0, max: 7 }),
  gapMs: fc.constantFrom(0, 0, 1, 5, 20),
});
const run = fc.record({
  actions: fc.array(action, { minLength: 1, maxLength: 70 }),
  commitMs: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 5 }),
  pipelineDepth: fc.constantFrom(1, 8),
  bounds: fc.record({ roomBytes: fc.integer({ min: 150, max: 1500 }), seatBytes: fc.integer({ min: 80, max: 600 }) }),
});
type Run = typeof run extends fc.Arbitrary<infer T> ? T : never;

function viewer(role: Role, seat: string | undefined, socketId: string, replies: ReplyFrame[]): Viewer {
  return { socketId, role, seat, wire: 'json', sendEvent: () => undefined, sendReply: (r) => replies.push(r), close: () => undefined };
}

function frameOf(kind: string, id: string, n: number): CommandFrame {
  switch (kind) {
    case 'add':
      return { id, type: 'rounds.add', data: { n } };
    case 'negative':
      return { id, type: 'rounds.add', data: { n: -1 - n } };
    case 'end':
      return { id, type: 'rounds.end', data: {} };
    case 'leave':
      return { id, type: 'rounds.leave', data: {} };
    case 'cheer':
      return { id, type: 'rounds.cheer', data: {} };
    default:
      return { id, type: 'ping', data: {} };
  }
}

function deps(scheduler: VirtualScheduler, store: RoomStore, r: Run, bounds: ReplyMemoryBounds, at = T0) {
  return actorDeps(
    store,
    { clock: scheduler.clock(at), scheduler },
    { replyMemory: bounds, pipelineDepth: r.pipelineDepth, mailboxDepth: 1000 },
  );
}

/** Plays the live room on virtual time. Its statements answer after their delays, in order, and all commit. */
async function playLive(r: Run) {
  const scheduler = new VirtualScheduler();
  const steps: JournalStep[] = [];
  const store: RoomStore = {
    append: (step) => {
      steps.push(step);
      const delay = r.commitMs[steps.length % r.commitMs.length];
      return new Promise((resolve) => (delay === 0 ? resolve() : scheduler.setTimer(() => resolve(), delay)));
    },
  };
  const live = RoomActor.restore(
    { code: 'ROUNDS', roomId: 'room-1', openedAt: T0 },
    rounds,
    { state: START, journal: [], replies: [] },
    deps(scheduler, store, r, r.bounds),
  );
  const sent = new Map<Who, Set<string>>();
  const replies: ReplyFrame[] = [];
  const viewers: Record<Exclude<Who, 'operator'>, Viewer> = {
    p1: viewer('player', 'p1', 'sock-p1', replies),
    p2: viewer('player', 'p2', 'sock-p2', replies),
    p3: viewer('player', 'p3', 'sock-p3', replies),
    host: viewer('host', undefined, 'sock-host', replies),
    watcher: viewer('spectator', undefined, 'sock-watcher', replies),
  };
  const operatorReplies: Promise<ReplyFrame>[] = [];
  for (const [i, a] of r.actions.entries()) {
    await scheduler.advance(a.gapMs);
    if (a.who === 'operator') {
      operatorReplies.push(live.operatorCommand(frameOf(a.kind === 'add' ? 'end' : a.kind, `operator-${i}`, a.n)));
      continue;
    }
    const id = `c${a.id}`;
    if (!sent.has(a.who)) sent.set(a.who, new Set());
    sent.get(a.who)!.add(id);
    live.submit(viewers[a.who], frameOf(a.kind, id, a.n), { at: T0 + scheduler.now(), hr: scheduler.now() });
  }
  await scheduler.runUntilIdle();
  await Promise.all(operatorReplies);
  return { live, steps, sent, at: T0 + scheduler.now() };
}

/**
 * What a load finds after a crash: the latest snapshot (passed through JSON, as PostgreSQL keeps
 * it) and the inputs of the statements after it.
 */
function restoredFrom(steps: readonly JournalStep[]): Restored<RoundsState> {
  let last = steps.length - 1;
  while (last >= 0 && steps[last].snapshot === undefined) last--;
  const after = steps.slice(last + 1).flatMap((s) => s.inputs);
  if (last < 0) return { state: START, replies: [], journal: after };
  const snapshot = JSON.parse(JSON.stringify(steps[last].snapshot!.snapshot)) as {
    state: RoundsState;
    replies: Restored<RoundsState>['replies'];
  };
  return { state: snapshot.state, replies: snapshot.replies, journal: JSON.parse(JSON.stringify(after)) };
}

/**
 * What the room answers to `id` from this seat: the remembered reply, or, when it remembers none,
 * a 404 for a type nobody knows.
 */
function probe(room: RoomActor<RoundsState, never>, who: 'p1' | 'p2' | 'p3' | 'host', id: string): ReplyFrame[] {
  const got: ReplyFrame[] = [];
  const v = who === 'host' ? viewer('host', undefined, 'probe', got) : viewer('player', who, 'probe', got);
  room.submit(v, { id, type: 'rounds.nothing', data: {} }, { at: T0, hr: 0 });
  return got;
}

describe('reply memory across a restart', () => {
  it('answers every resent id the same before and after the room is rebuilt from its snapshot and journal', async () => {
    await fc.assert(
      fc.asyncProperty(run, async (r) => {
        const { live, steps, sent, at } = await playLive(r);
        const scheduler = new VirtualScheduler();
        const nothing: RoomStore = { append: () => Promise.reject(new Error('a rebuilt room that only answers resends writes nothing')) };
        const rebuilt = RoomActor.restore(
          { code: 'ROUNDS', roomId: 'room-1', openedAt: T0 },
          rounds,
          restoredFrom(steps),
          deps(scheduler, nothing, r, r.bounds, at),
        );
        await scheduler.runUntilIdle();
        expect(rebuilt.snapshot).toEqual(live.snapshot);
        const { inFlight: _live, sockets: _watchers, ...window } = live.replyMemory;
        expect(rebuilt.replyMemory).toEqual({ ...window, inFlight: 0, sockets: 0 });
        for (const who of ['p1', 'p2', 'p3', 'host'] as const) {
          for (const id of sent.get(who) ?? []) expect(probe(rebuilt as never, who, id)).toEqual(probe(live as never, who, id));
        }
        // The journal records operators' commands as the host's, so both rooms remember them under the host's seat.
        for (const i of r.actions.keys())
          expect(probe(rebuilt as never, 'host', `operator-${i}`)).toEqual(probe(live as never, 'host', `operator-${i}`));
        live.dispose();
        rebuilt.dispose();
      }),
      { numRuns: 150 },
    );
  });

  it('answers a resent ping afresh: its reply is not remembered', async () => {
    const scheduler = new VirtualScheduler();
    const r: Run = { actions: [], commitMs: [0], pipelineDepth: 8, bounds: { roomBytes: 65536, seatBytes: 8192 } };
    const room = RoomActor.restore(
      { code: 'ROUNDS', roomId: 'room-1', openedAt: T0 },
      rounds,
      { state: START, journal: [], replies: [] },
      deps(scheduler, { append: async () => undefined }, r, r.bounds),
    );
    const got: ReplyFrame[] = [];
    const p1 = viewer('player', 'p1', 'sock-p1', got);
    room.submit(p1, { id: 'ping-1', type: 'ping', data: {} }, { at: T0, hr: 0 });
    await scheduler.advance(1500);
    room.submit(p1, { id: 'ping-1', type: 'ping', data: {} }, { at: T0 + 1500, hr: 1500 });
    expect(got.map((g) => [g.id, g.status, (g.data as { serverTime: number }).serverTime])).toEqual([
      ['ping-1', 200, T0],
      ['ping-1', 200, T0 + 1500],
    ]);
    expect(room.replyMemory).toEqual({ seats: 0, ids: 0, bytes: 0, inFlight: 0, sockets: 0 });
    room.dispose();
  });

  it("frees a spectator's memory when its socket goes", async () => {
    const scheduler = new VirtualScheduler();
    const r: Run = { actions: [], commitMs: [0], pipelineDepth: 8, bounds: { roomBytes: 65536, seatBytes: 8192 } };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const room = RoomActor.restore(
      { code: 'ROUNDS', roomId: 'room-1', openedAt: T0 },
      rounds,
      { state: START, journal: [], replies: [] },
      deps(scheduler, { append: () => held }, r, r.bounds),
    );
    const got: ReplyFrame[] = [];
    const p1 = viewer('player', 'p1', 'sock-p1', got);
    const watchers = Array.from({ length: 5 }, (_, i) => viewer('spectator', undefined, `watcher-${i}`, got));
    for (const w of watchers) expect(room.attach(w)).toEqual({ ok: true });
    // A player's addition holds the room's statement, and each watcher's cheer waits behind it.
    room.submit(p1, { id: 'a', type: 'rounds.add', data: { n: 1 } }, { at: T0, hr: 0 });
    await scheduler.flush();
    for (const w of watchers) room.submit(w, { id: 'w', type: 'rounds.cheer', data: {} }, { at: T0, hr: 0 });
    expect(room.replyMemory).toMatchObject({ inFlight: 6, sockets: 5 });
    for (const w of watchers) room.detach(w);
    expect(room.replyMemory).toMatchObject({ inFlight: 1, sockets: 0 });
    release();
    await scheduler.runUntilIdle();
    expect(room.replyMemory).toEqual({ seats: 1, ids: 1, bytes: expect.any(Number), inFlight: 0, sockets: 0 });
    room.dispose();
  });
});
