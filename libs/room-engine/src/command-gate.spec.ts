import { ReplyFrame, Role, RoomErrorCode, RoomException } from '@app/protocol';
import { tally, TallyState } from '../test/tally.game';
import { Viewer } from './audience';
import { CommandGate } from './command-gate';
import { Mailbox } from './mailbox';
import { ReplyMemory } from './reply-memory';
import { Message } from './room-message';
import { RefusedCommand } from './refused-command';
import { RoomStats } from './room-stats';
import { RuleDriver } from './rule-driver';
import { VirtualScheduler } from './virtual-scheduler';

// These tests check the gate on its own. They use a real mailbox on virtual time whose batches
// the test answers, the tally game's rules, and a pipeline whose two states are set by hand.

const T0 = 1_700_000_000_000;
const open = (overrides: Partial<TallyState> = {}): TallyState => ({
  code: 'ABCDEF',
  seats: ['p1', 'p2'],
  total: 0,
  closed: false,
  ...overrides,
});

function harness(options: { maxDepth?: number } = {}) {
  const scheduler = new VirtualScheduler();
  const clock = scheduler.clock(T0);
  const observed: { type: string; status: number; seconds: number; waitSeconds: number }[] = [];
  const room = { phase: 'live' as 'live' | 'draining' | 'closed', pipeline: { inFlight: 0, state: open(), confirmed: open() } };
  const stats = new RoomStats(clock.now());
  const refused: RefusedCommand[] = [];
  const driver = new RuleDriver(tally, 7);
  // This stands in for the room's turn: the test answers each command through `answer`.
  const taken: Message<any>[] = [];
  const mailbox = new Mailbox<Message<any>>({
    maxDepth: options.maxDepth ?? 8,
    isBounded: (m) => m.kind !== 'signal',
    batchKey: () => null,
    process: (batch) => void taken.push(...batch.map((l) => l.message)),
    onError: (err) => {
      throw err;
    },
    scheduler,
  });
  const gate = new CommandGate<TallyState, any>({
    code: 'ABCDEF',
    driver,
    mailbox,
    pipeline: room.pipeline,
    notLive: () =>
      room.phase === 'draining'
        ? new RoomException(RoomErrorCode.ShuttingDown, 'draining')
        : room.phase === 'closed'
          ? new RoomException(RoomErrorCode.RoomClosed, 'closed')
          : undefined,
    replies: new ReplyMemory(),
    stats,
    refused: (r) => refused.push(r),
    observer: { command: (type, status, seconds, waitSeconds) => observed.push({ type, status, seconds, waitSeconds }) },
    clock,
    scheduler,
    log: () => undefined,
  });
  return { scheduler, clock, room, gate, mailbox, taken, observed, stats, refused };
}

function viewer(role: Role, seat?: string) {
  const replies: ReplyFrame[] = [];
  const v: Viewer = {
    socketId: `${role}-${seat ?? ''}`,
    role,
    seat,
    wire: 'json',
    sendEvent: () => undefined,
    sendReply: (r) => replies.push(r),
    close: () => undefined,
  };
  return { v, replies, statuses: () => replies.map((r) => [r.id, r.status, r.error?.code ?? null]) };
}

const add = (id: string, n: number) => ({ id, type: 'tally.add', data: { n } });

describe(CommandGate.name, () => {
  describe('the refusal hook', () => {
    it('hears every refusal the gate and the rules answer, with who sent it, and nothing accepted, pinged or resent', async () => {
      const h = harness({ maxDepth: 1 });
      const p = viewer('player', 'p1');
      const now = { at: h.clock.now(), hr: h.scheduler.now() };
      h.gate.submit(p.v, { id: 'type', type: 'tally.nope', data: {} }, now);
      h.gate.submit(p.v, { id: 'ping', type: 'ping', data: {} }, now);
      h.gate.submit(p.v, add('ok', 1), now);
      h.gate.submit(p.v, add('full', 1), now);
      await h.scheduler.flush();
      const [letter] = h.taken;
      h.gate.replyTo({ message: letter as any, enqueuedAt: 0 }, { total: 1 }, 0, 1);
      h.gate.submit(p.v, add('ok', 1), now);
      h.gate.submit(p.v, add('rules', 1), now);
      await h.scheduler.flush();
      h.gate.replyTo({ message: h.taken[1] as any, enqueuedAt: 0 }, new RoomException('too_much', 'the rules say no'), 0, 0);
      h.gate.refusedBefore(p.v, 'tally.add', new RoomException(RoomErrorCode.TooFast, 'slow down'), T0 + 5);
      expect(h.refused.map((r) => [r.by, r.seat, r.type, r.code, r.status, r.at])).toEqual([
        ['player', 'p1', 'tally.nope', 'unknown_type', 404, T0],
        ['player', 'p1', 'tally.add', 'mailbox_full', 503, T0],
        ['player', 'p1', 'tally.add', 'too_much', 400, T0],
        ['player', 'p1', 'tally.add', 'too_fast', 429, T0 + 5],
      ]);
    });

    it("names an operator's refused command as the operator's", async () => {
      const h = harness();
      h.room.phase = 'closed';
      const reply = await h.gate.operatorCommand({ id: 'op', type: 'tally.close', data: {} });
      expect(reply.status).toBe(409);
      expect(h.refused.map((r) => [r.by, r.seat, r.code])).toEqual([['operator', undefined, 'room_closed']]);
    });
  });

  describe('the order of refusals', () => {
    it('answers the type, the role and the shape before the room says it takes nothing, and the room before the mailbox', () => {
      const h = harness({ maxDepth: 0 });
      const p = viewer('player', 'p1');
      const now = { at: h.clock.now(), hr: h.scheduler.now() };
      h.room.phase = 'draining';
      h.gate.submit(p.v, { id: 'type', type: 'tally.nope', data: {} }, now);
      h.gate.submit(p.v, { id: 'role', type: 'tally.close', data: {} }, now);
      h.gate.submit(p.v, { id: 'shape', type: 'tally.add', data: { n: 'one' } }, now);
      h.gate.submit(p.v, add('draining', 1), now);
      h.room.phase = 'closed';
      h.gate.submit(p.v, add('closed', 1), now);
      h.room.phase = 'live';
      h.gate.submit(p.v, add('full', 1), now);
      expect(p.statuses()).toEqual([
        ['type', 404, 'unknown_type'],
        ['role', 403, 'forbidden'],
        ['shape', 400, 'bad_data'],
        ['draining', 503, 'shutting_down'],
        ['closed', 409, 'room_closed'],
        ['full', 503, 'mailbox_full'],
      ]);
      expect(h.mailbox.depth).toBe(0);
    });

    it("answers a ping at once, whatever the room is doing, with the room clock's time", () => {
      const h = harness({ maxDepth: 0 });
      const s = viewer('spectator');
      h.room.phase = 'draining';
      h.gate.submit(s.v, { id: 'ping', type: 'ping', data: {} }, { at: h.clock.now(), hr: 0 });
      expect(s.replies).toEqual([{ type: 'reply', id: 'ping', status: 200, data: { serverTime: T0 } }]);
    });

    it('gives a resent id its first reply before anything else is looked at', async () => {
      const h = harness();
      const p = viewer('player', 'p1');
      h.gate.submit(p.v, add('once', 2), { at: h.clock.now(), hr: 0 });
      // A resend that arrives while the first is in the mailbox waits for the same reply.
      h.gate.submit(p.v, add('once', 2), { at: h.clock.now(), hr: 0 });
      await h.scheduler.flush();
      const [letter] = h.taken;
      expect(h.taken).toHaveLength(1);
      h.gate.replyTo({ message: letter as any, enqueuedAt: 0 }, { total: 2 }, 0, 1);
      h.room.phase = 'draining';
      h.gate.submit(p.v, add('once', 2), { at: h.clock.now(), hr: 0 });
      expect(p.statuses()).toEqual([
        ['once', 200, null],
        ['once', 200, null],
        ['once', 200, null],
      ]);
    });
  });

  describe('certain refusals', () => {
    it('refuses at once, ahead of a full mailbox, a command both states refuse while a statement is out', () => {
      const h = harness({ maxDepth: 0 });
      h.room.pipeline.inFlight = 1;
      const p = viewer('player', 'p1');
      h.gate.submit(p.v, add('negative', -1), { at: h.clock.now(), hr: 0 });
      expect(p.statuses()).toEqual([['negative', 409, 'negative']]);
    });

    it('lets through what the state in flight or the confirmed one would take, what nothing in flight holds up, and what has letters ahead', async () => {
      const h = harness();
      const p = viewer('player', 'p1');
      const now = () => ({ at: h.clock.now(), hr: 0 });
      // The rules refuse this command now, but nothing is in flight, so the room decides it in its turn.
      h.gate.submit(p.v, add('idle', -1), now());
      await h.scheduler.flush();
      h.room.pipeline.inFlight = 1;
      h.room.pipeline.confirmed = open({ closed: true });
      // Only the confirmed state refuses this one, and the step in flight may yet commit, so it waits.
      h.gate.submit(p.v, add('either', 1), now());
      h.gate.submit(p.v, add('behind', -1), now());
      await h.scheduler.flush();
      expect(p.replies).toEqual([]);
      expect(h.taken.map((m) => (m.kind === 'command' ? m.command.id : m.kind))).toEqual(['idle', 'either', 'behind']);
    });

    it('answers the waiting commands at the head of the mailbox that a statement in flight cannot make acceptable, up to the first it could', () => {
      const h = harness();
      const p = viewer('player', 'p1');
      const now = () => ({ at: h.clock.now(), hr: 0 });
      h.gate.submit(p.v, add('a', -1), now());
      h.gate.submit(p.v, add('b', -2), now());
      h.gate.submit(p.v, add('c', 3), now());
      h.gate.submit(p.v, add('d', -4), now());
      h.room.pipeline.inFlight = 1;
      h.gate.refuseWaiting();
      expect(p.statuses()).toEqual([
        ['a', 409, 'negative'],
        ['b', 409, 'negative'],
      ]);
      expect(h.mailbox.depth).toBe(2);
    });
  });

  describe('replies', () => {
    it("replies once to a letter, and observes it under the server's vocabulary with its latency and mailbox wait", async () => {
      const h = harness();
      const p = viewer('player', 'p1');
      h.gate.submit(p.v, { id: 'odd', type: 'x'.repeat(500), data: {} }, { at: h.clock.now(), hr: h.scheduler.now() });
      h.gate.submit(p.v, add('slow', 1), { at: h.clock.now(), hr: h.scheduler.now() });
      await h.scheduler.advance(30);
      const letter = { message: h.taken[0] as any, enqueuedAt: 0 };
      h.gate.replyTo(letter, { total: 1 }, 12, 1);
      h.gate.replyTo(letter, new RoomException(RoomErrorCode.DatabaseUnavailable, 'late'), 12, 0);
      expect(p.statuses()).toEqual([
        ['odd', 404, 'unknown_type'],
        ['slow', 200, null],
      ]);
      expect(h.observed).toEqual([
        { type: 'unknown', status: 404, seconds: 0, waitSeconds: 0 },
        { type: 'tally.add', status: 200, seconds: 0.03, waitSeconds: 0.012 },
      ]);
      expect(h.stats.lastCommands().map((c) => [c.type, c.ms, c.mailboxWaitMs, c.roundTrips])).toEqual([
        ['unknown', 0, 0, 0],
        ['tally.add', 30, 12, 1],
      ]);
    });

    it('answers 409 room_closed to every command and proposal still waiting when the room closes, and takes nothing after', async () => {
      const h = harness();
      const p = viewer('player', 'p1');
      h.gate.submit(p.v, add('waiting', 1), { at: h.clock.now(), hr: 0 });
      const proposal = h.gate.propose('nothing', {});
      h.gate.close();
      await expect(proposal).rejects.toMatchObject({ code: 'room_closed' });
      expect(p.statuses()).toEqual([['waiting', 409, 'room_closed']]);
      h.gate.submit(p.v, add('after', 1), { at: h.clock.now(), hr: 0 });
      expect(p.statuses().at(-1)).toEqual(['after', 503, 'mailbox_full']);
      await h.scheduler.flush();
      expect(h.taken).toEqual([]);
    });

    it('refuses a proposal at once when the room takes nothing, and takes an operator command in turn as the host', async () => {
      const h = harness();
      h.room.phase = 'draining';
      await expect(h.gate.propose('nothing', {})).rejects.toMatchObject({ code: 'shutting_down' });
      h.room.phase = 'live';
      const reply = h.gate.operatorCommand({ id: 'op', type: 'tally.close', data: {} });
      await h.scheduler.flush();
      const [m] = h.taken;
      expect(m).toMatchObject({ kind: 'command', viewer: { role: 'host' }, command: { id: 'op', type: 'tally.close' } });
      if (m.kind === 'command') m.reply({ type: 'reply', id: 'op', status: 200, data: {} });
      await expect(reply).resolves.toMatchObject({ id: 'op', status: 200 });
    });
  });
});
