import { errorReply, okReply, ReplyFrame, RoomErrorCode, RoomException } from '@app/protocol';
import fc from 'fast-check';
import { ReplyBodies, ReplyMemory, ReplyMemoryBounds } from './reply-memory';
import { SeatReply } from './room-store';

function recorder() {
  const got: ReplyFrame[] = [];
  return { got, deliver: (reply: ReplyFrame) => got.push(reply) };
}

const ok = (id: string, data: unknown = {}) => okReply(id, data);
const refused = (id: string, code: RoomErrorCode) => errorReply(id, new RoomException(code, 'no'));
const BIG: ReplyMemoryBounds = { roomBytes: 1 << 30, seatBytes: 1 << 30 };

/** Passes a command's id through the memory: begun, then settled with `reply`. */
function answer(memory: ReplyMemory, seat: string, reply: ReplyFrame): void {
  memory.begin(seat, reply.id!);
  memory.settle(seat, reply.id!, reply);
}

/** Whether the memory would answer `id` again, and with what. */
function resend(memory: ReplyMemory, seat: string, id: string): ReplyFrame | undefined {
  const r = recorder();
  return memory.replay(seat, id, r.deliver) ? r.got[0] : undefined;
}

/** The size one remembered reply counts for: its JSON as a snapshot stores it, in UTF-8 bytes. */
const bytesOf = (seat: string, reply: ReplyFrame) => Buffer.byteLength(JSON.stringify({ seat, reply }), 'utf8');

describe(ReplyMemory.name, () => {
  it('knows nothing of an id it has not seen', () => {
    const memory = new ReplyMemory();
    const r = recorder();
    expect(memory.replay('p:1', 'c-1', r.deliver)).toBe(false);
    expect(r.got).toEqual([]);
  });

  it('replays the original reply for a resent id, as often as it is resent', () => {
    const memory = new ReplyMemory();
    const reply = ok('c-1', { accepted: true });
    memory.begin('p:1', 'c-1');
    expect(memory.settle('p:1', 'c-1', reply)).toEqual([]);
    const r = recorder();
    expect(memory.replay('p:1', 'c-1', r.deliver)).toBe(true);
    expect(memory.replay('p:1', 'c-1', r.deliver)).toBe(true);
    expect(r.got).toEqual([reply, reply]);
  });

  it('does not remember a refusal: it changed nothing, and a resend is decided afresh', () => {
    const memory = new ReplyMemory();
    answer(memory, 'p:1', refused('c-2', RoomErrorCode.SeatGone));
    expect(resend(memory, 'p:1', 'c-2')).toBeUndefined();
    expect(memory.stats()).toEqual({ seats: 0, ids: 0, bytes: 0, inFlight: 0, sockets: 0 });
  });

  it('holds a resend of a command still in flight until its reply comes, a refusal as well as a 200', () => {
    const memory = new ReplyMemory();
    for (const reply of [ok('c-1'), refused('c-2', RoomErrorCode.RoomClosed)]) {
      memory.begin('p:1', reply.id!);
      const first = recorder();
      const second = recorder();
      expect(memory.replay('p:1', reply.id!, first.deliver)).toBe(true);
      expect(memory.replay('p:1', reply.id!, second.deliver)).toBe(true);
      // Nothing is delivered before the command settles.
      expect([...first.got, ...second.got]).toEqual([]);
      expect(memory.stats().inFlight).toBe(1);
      const waiting = memory.settle('p:1', reply.id!, reply);
      expect(waiting).toEqual([first.deliver, second.deliver]);
      expect(memory.stats().inFlight).toBe(0);
    }
  });

  it.each([
    ['429', RoomErrorCode.TooFast, 429],
    ['503 mailbox full', RoomErrorCode.MailboxFull, 503],
    ['503 database unavailable', RoomErrorCode.DatabaseUnavailable, 503],
  ])('forgets a %s reply so a retry is tried afresh, and still hands it to the resends that waited', (_what, code, status) => {
    const memory = new ReplyMemory();
    const reply = refused('c-3', code);
    expect(reply.status).toBe(status);
    memory.begin('p:1', 'c-3');
    const r = recorder();
    memory.replay('p:1', 'c-3', r.deliver);
    expect(memory.settle('p:1', 'c-3', reply)).toEqual([r.deliver]);
    expect(resend(memory, 'p:1', 'c-3')).toBeUndefined();
  });

  it('remembers the reply of a retry after a 503', () => {
    const memory = new ReplyMemory();
    answer(memory, 'p:1', refused('c-5', RoomErrorCode.DatabaseUnavailable));
    answer(memory, 'p:1', ok('c-5'));
    expect(resend(memory, 'p:1', 'c-5')).toEqual(ok('c-5'));
  });

  it('keeps each seat apart', () => {
    const memory = new ReplyMemory();
    answer(memory, 'p:1', ok('c-1'));
    expect(resend(memory, 'p:2', 'c-1')).toBeUndefined();
    expect(resend(memory, 'host', 'c-1')).toBeUndefined();
  });

  it('ignores a settle for an id it never began', () => {
    const memory = new ReplyMemory();
    expect(memory.settle('p:1', 'c-9', ok('c-9'))).toEqual([]);
    expect(resend(memory, 'p:1', 'c-9')).toBeUndefined();
  });

  describe('bounds in bytes', () => {
    it('counts each remembered id as the bytes of its JSON in a snapshot', () => {
      const memory = new ReplyMemory();
      answer(memory, 'p:1', ok('c-1', { accepted: true }));
      answer(memory, 'host', ok('h-é', { text: 'naïve' }));
      const owed = memory.owed([]);
      expect(owed).toEqual([
        { seat: 'p:1', reply: ok('c-1', { accepted: true }) },
        { seat: 'host', reply: ok('h-é', { text: 'naïve' }) },
      ]);
      expect(memory.stats()).toEqual({
        seats: 2,
        ids: 2,
        bytes: owed.reduce((n, e) => n + bytesOf(e.seat, e.reply), 0),
        inFlight: 0,
        sockets: 0,
      });
    });

    it("drops a seat's own oldest ids past its bound, and no one else's", () => {
      const one = bytesOf('p:1', ok('c-0'));
      const memory = new ReplyMemory({ roomBytes: 100 * one, seatBytes: 3 * one });
      answer(memory, 'p:2', ok('c-0'));
      for (let i = 0; i < 10; i++) answer(memory, 'p:1', ok(`c-${i}`));
      expect(memory.owed([]).map((e) => `${e.seat} ${e.reply.id}`)).toEqual(['p:2 c-0', 'p:1 c-7', 'p:1 c-8', 'p:1 c-9']);
      expect(memory.stats().bytes).toBe(4 * one);
    });

    it("drops the room's oldest ids past the room's bound, whoever answered them", () => {
      const one = bytesOf('p:1', ok('c-0'));
      const memory = new ReplyMemory({ roomBytes: 4 * one, seatBytes: 3 * one });
      for (let i = 0; i < 3; i++) {
        answer(memory, 'p:1', ok(`c-${i}`));
        answer(memory, 'p:2', ok(`c-${i}`));
      }
      expect(memory.owed([]).map((e) => `${e.seat} ${e.reply.id}`)).toEqual(['p:1 c-1', 'p:2 c-1', 'p:1 c-2', 'p:2 c-2']);
      expect(memory.stats()).toMatchObject({ seats: 2, ids: 4, bytes: 4 * one });
    });

    it("keeps the quiet seats' ids however many commands one seat sends, when the room holds every seat's share", () => {
      const one = bytesOf('p:1', ok('c-0000'));
      const memory = new ReplyMemory({ roomBytes: 40 * one, seatBytes: 10 * one });
      for (const seat of ['p:2', 'p:3', 'p:4']) for (let i = 0; i < 5; i++) answer(memory, seat, ok(`c-000${i}`));
      for (let i = 0; i < 5000; i++) answer(memory, 'p:1', ok(`c-${String(i).padStart(4, '0')}`));
      for (const seat of ['p:2', 'p:3', 'p:4'])
        for (let i = 0; i < 5; i++) expect(resend(memory, seat, `c-000${i}`)).toEqual(ok(`c-000${i}`));
      // The noisy seat keeps only its newest replies, up to its share.
      expect(resend(memory, 'p:1', 'c-4990')).toEqual(ok('c-4990'));
      expect(resend(memory, 'p:1', 'c-4989')).toBeUndefined();
      expect(memory.stats()).toMatchObject({ ids: 25, bytes: 25 * one });
    });

    it('goes by when each id was answered: a resend does not renew it', () => {
      const one = bytesOf('p:1', ok('c-0'));
      const memory = new ReplyMemory({ roomBytes: 100 * one, seatBytes: 2 * one });
      answer(memory, 'p:1', ok('c-0'));
      answer(memory, 'p:1', ok('c-1'));
      expect(resend(memory, 'p:1', 'c-0')).toEqual(ok('c-0'));
      answer(memory, 'p:1', ok('c-2'));
      expect(resend(memory, 'p:1', 'c-0')).toBeUndefined();
      expect(resend(memory, 'p:1', 'c-1')).toEqual(ok('c-1'));
    });

    it("does not keep a reply larger than a seat's bound", () => {
      const memory = new ReplyMemory({ roomBytes: 1000, seatBytes: 100 });
      answer(memory, 'p:1', ok('small'));
      answer(memory, 'p:1', ok('large', { text: 'x'.repeat(100) }));
      expect(resend(memory, 'p:1', 'large')).toBeUndefined();
      expect(memory.stats().ids).toBe(0);
    });

    it('never holds more than its bounds, whatever is answered', () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              seat: fc.constantFrom('p:1', 'p:2', 'p:3', 'host'),
              id: fc.string({ minLength: 1, maxLength: 64 }),
              text: fc.string({ maxLength: 200 }),
            }),
            { maxLength: 200 },
          ),
          fc.integer({ min: 50, max: 2000 }),
          fc.integer({ min: 50, max: 2000 }),
          (answers, roomBytes, seatBytes) => {
            const memory = new ReplyMemory({ roomBytes, seatBytes });
            for (const a of answers) {
              answer(memory, a.seat, ok(a.id, { text: a.text }));
              const owed = memory.owed([]);
              const bytes = owed.reduce((n, e) => n + bytesOf(e.seat, e.reply), 0);
              expect(memory.stats().bytes).toBe(bytes);
              expect(bytes).toBeLessThanOrEqual(roomBytes);
              for (const seat of new Set(owed.map((e) => e.seat))) {
                expect(owed.filter((e) => e.seat === seat).reduce((n, e) => n + bytesOf(e.seat, e.reply), 0)).toBeLessThanOrEqual(
                  seatBytes,
                );
              }
            }
          },
        ),
        { numRuns: 200 },
      );
    });
  });

  describe('spectators', () => {
    it("keeps a spectator's replies to its socket, out of the room's window and its snapshots, and frees them when the socket goes", () => {
      const memory = new ReplyMemory();
      answer(memory, 's:sock-1', ok('w-1'));
      memory.begin('s:sock-1', 'w-2');
      memory.begin('s:sock-2', 'w-1');
      expect(resend(memory, 's:sock-1', 'w-1')).toEqual(ok('w-1'));
      expect(resend(memory, 's:sock-2', 'w-2')).toBeUndefined();
      expect(memory.owed([{ seat: 's:sock-1', reply: ok('w-3') }])).toEqual([]);
      expect(memory.stats()).toEqual({ seats: 0, ids: 0, bytes: 0, inFlight: 2, sockets: 2 });
      memory.forgetSocket('s:sock-1');
      expect(resend(memory, 's:sock-1', 'w-1')).toBeUndefined();
      expect(memory.stats()).toEqual({ seats: 0, ids: 0, bytes: 0, inFlight: 1, sockets: 1 });
      memory.forgetSocket('s:sock-2');
      expect(memory.stats()).toEqual({ seats: 0, ids: 0, bytes: 0, inFlight: 0, sockets: 0 });
    });
  });

  describe('snapshots', () => {
    it('owes what the window would be once the acknowledged replies in flight join it, and leaves the memory as it is', () => {
      const one = bytesOf('p:1', ok('c-0'));
      const memory = new ReplyMemory({ roomBytes: 100 * one, seatBytes: 2 * one });
      answer(memory, 'p:1', ok('c-0'));
      answer(memory, 'p:1', ok('c-1'));
      const owed = memory.owed([
        { seat: 'p:1', reply: ok('c-2') },
        { seat: 'host', reply: ok('c-0') },
      ]);
      expect(owed.map((e) => `${e.seat} ${e.reply.id}`)).toEqual(['p:1 c-1', 'p:1 c-2', 'host c-0']);
      expect(memory.owed([]).map((e) => `${e.seat} ${e.reply.id}`)).toEqual(['p:1 c-0', 'p:1 c-1']);
    });

    it('is rebuilt exactly from a snapshot taken at any moment and the replies acknowledged after it', () => {
      const answered = fc.record({
        seat: fc.constantFrom('p:1', 'p:2', 'p:3', 'host'),
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
        text: fc.string({ maxLength: 40 }),
      });
      fc.assert(
        fc.property(
          fc.array(answered, { maxLength: 120 }),
          fc.nat(),
          fc.nat(),
          fc.integer({ min: 60, max: 1200 }),
          fc.integer({ min: 60, max: 600 }),
          (answers, at, inFlight, roomBytes, seatBytes) => {
            const bounds = { roomBytes, seatBytes };
            const replies = answers.map((a) => ({ seat: a.seat, reply: ok(a.id, { text: a.text }) }));
            const cut = at % (replies.length + 1);
            // The snapshot's step carries the replies of the steps in flight and its own.
            const carried = replies.slice(cut, cut + (inFlight % 4));
            const live = new ReplyMemory(bounds, new ReplyBodies());
            for (const { seat, reply } of replies.slice(0, cut)) answer(live, seat, reply);
            const snapshot = JSON.parse(JSON.stringify(live.owed(carried))) as SeatReply[];
            for (const { seat, reply } of replies.slice(cut)) answer(live, seat, reply);
            // After a restart the memory holds the snapshot's window, then the journal's acknowledged commands after it.
            const rebuilt = new ReplyMemory(bounds, new ReplyBodies());
            for (const { seat, reply } of snapshot) rebuilt.remember(seat, reply);
            for (const { seat, reply } of replies.slice(cut + carried.length)) rebuilt.remember(seat, reply);
            expect(rebuilt.owed([])).toStrictEqual(live.owed([]));
            expect(rebuilt.stats()).toEqual(live.stats());
            for (const { seat, reply } of replies) expect(resend(rebuilt, seat, reply.id!)).toStrictEqual(resend(live, seat, reply.id!));
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('against a plain model', () => {
    const seats = ['p:1', 'p:2', 'host'];
    const ids = ['a', 'b', 'c', 'd'];
    type Kind = 'accepted' | 'empty' | 'count' | 'refused' | 'tooFast' | 'busy' | 'down';
    const kinds: Kind[] = ['accepted', 'empty', 'count', 'refused', 'tooFast', 'busy', 'down'];
    const replyOf = (kind: Kind, id: string, n: number): ReplyFrame => {
      if (kind === 'accepted') return ok(id, { accepted: true });
      if (kind === 'empty') return ok(id, {});
      if (kind === 'count') return ok(id, { n });
      const code = {
        refused: RoomErrorCode.SeatGone,
        tooFast: RoomErrorCode.TooFast,
        busy: RoomErrorCode.MailboxFull,
        down: RoomErrorCode.DatabaseUnavailable,
      }[kind];
      return refused(id, code);
    };
    const seat = fc.constantFrom(...seats);
    const id = fc.constantFrom(...ids);
    const reply = fc.record({ kind: fc.constantFrom(...kinds), n: fc.integer({ min: 0, max: 3 }) });
    const op = fc.oneof(
      fc.record({ op: fc.constant('begin' as const), seat, id }),
      fc.record({ op: fc.constant('settle' as const), seat, id, reply }),
      fc.record({ op: fc.constant('replay' as const), seat, id }),
      fc.record({ op: fc.constant('remember' as const), seat, id: fc.option(id), reply }),
    );

    /**
     * A model of the memory: the ids in flight per seat, and the remembered replies as one list,
     * oldest first, cut from the front.
     */
    class Model {
      readonly pending = new Map<string, Map<string, number[]>>();
      remembered: { seat: string; reply: ReplyFrame }[] = [];
      constructor(private readonly bounds: ReplyMemoryBounds) {}
      known(seat: string, id: string) {
        const waiting = this.pending.get(seat)?.get(id);
        if (waiting) return { waiting };
        const r = this.remembered.find((e) => e.seat === seat && e.reply.id === id);
        return r ? { reply: r.reply } : undefined;
      }
      begin(seat: string, id: string): void {
        if (!this.pending.has(seat)) this.pending.set(seat, new Map());
        this.pending.get(seat)!.set(id, []);
      }
      settle(seat: string, id: string, reply: ReplyFrame): number[] {
        const waiting = this.pending.get(seat)?.get(id);
        if (!waiting) return [];
        this.pending.get(seat)!.delete(id);
        if (reply.status === 200) this.remember(seat, reply);
        return waiting;
      }
      remember(seat: string, reply: ReplyFrame): void {
        if (reply.id === null) return;
        this.remembered = this.remembered.filter((e) => !(e.seat === seat && e.reply.id === reply.id));
        this.remembered.push({ seat, reply });
        const sum = (list: typeof this.remembered) => list.reduce((n, e) => n + bytesOf(e.seat, e.reply), 0);
        while (sum(this.remembered.filter((e) => e.seat === seat)) > this.bounds.seatBytes) {
          this.remembered.splice(
            this.remembered.findIndex((e) => e.seat === seat),
            1,
          );
        }
        while (sum(this.remembered) > this.bounds.roomBytes) this.remembered.shift();
      }
    }

    it('replays, holds, forgets and bounds as the model does', () => {
      fc.assert(
        fc.property(
          fc.array(op, { maxLength: 80, size: 'max' }),
          fc.integer({ min: 30, max: 400 }),
          fc.integer({ min: 30, max: 200 }),
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom(24, 512),
          (ops, roomBytes, seatBytes, shared, maxText) => {
            const bounds = { roomBytes, seatBytes };
            const memory = new ReplyMemory(bounds, new ReplyBodies(shared, maxText));
            const model = new Model(bounds);
            // Record what each resend got, by the resend's number, from the memory and from the model.
            const got: [number, ReplyFrame][] = [];
            const want: [number, ReplyFrame][] = [];
            ops.forEach((o, no) => {
              if (o.op === 'begin') {
                memory.begin(o.seat, o.id);
                model.begin(o.seat, o.id);
              } else if (o.op === 'settle') {
                const r = replyOf(o.reply.kind, o.id, o.reply.n);
                for (const waiter of memory.settle(o.seat, o.id, r)) waiter(r);
                for (const waiter of model.settle(o.seat, o.id, r)) want.push([waiter, r]);
              } else if (o.op === 'replay') {
                const known = model.known(o.seat, o.id);
                expect(memory.replay(o.seat, o.id, (r) => got.push([no, r]))).toBe(known !== undefined);
                if (known?.reply) want.push([no, known.reply]);
                else known?.waiting.push(no);
              } else {
                const r = { ...replyOf(o.reply.kind, o.id ?? 'x', o.reply.n), id: o.id };
                if (r.status === 200) {
                  memory.remember(o.seat, r);
                  model.remember(o.seat, r);
                }
              }
            });
            expect(got).toStrictEqual(want);
            for (const s of seats) {
              for (const i of ids) {
                const known = model.known(s, i);
                const r = recorder();
                expect(memory.replay(s, i, r.deliver)).toBe(known !== undefined);
                expect(r.got).toStrictEqual(known?.reply ? [known.reply] : []);
              }
            }
            expect(memory.owed([])).toStrictEqual(model.remembered);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

describe(ReplyBodies.name, () => {
  it('keeps one body for replies alike, and makes a new frame for each resend', () => {
    const bodies = new ReplyBodies();
    const memory = new ReplyMemory(BIG, bodies);
    for (const [id, data] of [
      ['c-1', { accepted: true }],
      ['c-2', { accepted: true }],
      ['c-3', { accepted: false }],
    ] as const)
      answer(memory, 'p:1', ok(id, { ...data }));
    expect(bodies.size).toBe(2);
    const r = recorder();
    for (const id of ['c-1', 'c-1', 'c-2']) memory.replay('p:1', id, r.deliver);
    const [first, again, second] = r.got;
    expect(first).toStrictEqual(ok('c-1', { accepted: true }));
    expect(second).toStrictEqual(ok('c-2', { accepted: true }));
    expect(again).toStrictEqual(first);
    // Each frame is a new object, but what the frames carry is one frozen object.
    expect(again).not.toBe(first);
    expect(second.data).toBe(first.data);
    expect(Object.isFrozen(first.data)).toBe(true);
  });

  it('shares across rooms: every memory takes the one set of bodies', () => {
    const [a, b] = [new ReplyMemory(), new ReplyMemory()];
    for (const memory of [a, b]) answer(memory, 'p:1', ok('c-1', { accepted: true }));
    expect(resend(b, 'p:1', 'c-1')!.data).toBe(resend(a, 'p:1', 'c-1')!.data);
  });

  it('replays what was sent, whatever becomes of the reply object afterwards', () => {
    const memory = new ReplyMemory(BIG, new ReplyBodies());
    const data = { scores: [{ seat: 'p1', points: 3 }] };
    answer(memory, 'p:1', ok('c-1', data));
    data.scores[0].points = 99;
    data.scores.push({ seat: 'p2', points: 1 });
    const again = resend(memory, 'p:1', 'c-1')!;
    expect(again).toStrictEqual(ok('c-1', { scores: [{ seat: 'p1', points: 3 }] }));
    expect(() => (again.data as typeof data).scores.push({ seat: 'p3', points: 0 })).toThrow(TypeError);
  });

  it('shares no more than its bound of bodies, and still replays each reply exactly', () => {
    const bodies = new ReplyBodies(64);
    const memory = new ReplyMemory(BIG, bodies);
    const sent = new Map<string, ReplyFrame>();
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      const id = `c-${i}`;
      const reply = ok(id, { n: i, label: `answer ${i}` });
      sent.set(id, reply);
      answer(memory, 'p:1', reply);
      most = Math.max(most, bodies.size);
    }
    expect(most).toBe(64);
    const r = recorder();
    for (const id of sent.keys()) memory.replay('p:1', id, r.deliver);
    expect(r.got).toStrictEqual([...sent.values()]);
  });

  it('keeps a body that recurs while bodies that differ every time pass through', () => {
    const memory = new ReplyMemory(BIG, new ReplyBodies(4));
    let n = 0;
    const settle = (data: unknown) => {
      const id = `c-${n++}`;
      answer(memory, 'p:1', ok(id, data));
      return id;
    };
    const answers: string[] = [];
    for (let round = 0; round < 10; round++) {
      answers.push(settle({ accepted: true }));
      for (let other = 0; other < 3; other++) settle({ total: n });
    }
    const r = recorder();
    for (const id of answers) memory.replay('p:1', id, r.deliver);
    // The least recently used body goes first, so the answer's body, used every fourth reply, stays.
    expect(new Set(r.got.map((reply) => reply.data)).size).toBe(1);
  });

  it('keeps a long body as its own, unshared', () => {
    const bodies = new ReplyBodies(64, 100);
    const memory = new ReplyMemory(BIG, bodies);
    const reply = ok('c-1', { text: 'x'.repeat(100) });
    answer(memory, 'p:1', reply);
    expect(bodies.size).toBe(0);
    expect(resend(memory, 'p:1', 'c-1')).toStrictEqual(reply);
  });
});
