import { errorReply, isRetryable, okReply, ReplyFrame, RoomErrorCode, RoomException } from '@app/protocol';
import fc from 'fast-check';
import { ReplyBodies, ReplyMemory } from './reply-memory';
import { SeatReply } from './room-store';

function recorder() {
  const got: ReplyFrame[] = [];
  return { got, deliver: (reply: ReplyFrame) => got.push(reply) };
}

const ok = (id: string, data: unknown = {}) => okReply(id, data);
const refused = (id: string, code: RoomErrorCode) => errorReply(id, new RoomException(code, 'no'));

describe(ReplyMemory.name, () => {
  it('knows nothing of an id it has not seen', () => {
    const memory = new ReplyMemory();
    const r = recorder();
    expect(memory.replay('p1', 'c-1', r.deliver)).toBe(false);
    expect(r.got).toEqual([]);
  });

  it('replays the original reply for a resent id', () => {
    const memory = new ReplyMemory();
    const reply = ok('c-1', { accepted: true });
    memory.begin('p1', 'c-1');
    expect(memory.settle('p1', 'c-1', reply)).toEqual([]);
    const r = recorder();
    expect(memory.replay('p1', 'c-1', r.deliver)).toBe(true);
    expect(r.got).toEqual([reply]);
    // And again, as often as it is resent.
    expect(memory.replay('p1', 'c-1', r.deliver)).toBe(true);
    expect(r.got).toEqual([reply, reply]);
  });

  it('remembers refusals that are not 429 or 503', () => {
    const memory = new ReplyMemory();
    const reply = refused('c-2', RoomErrorCode.SeatGone);
    memory.begin('p1', 'c-2');
    memory.settle('p1', 'c-2', reply);
    const r = recorder();
    expect(memory.replay('p1', 'c-2', r.deliver)).toBe(true);
    expect(r.got).toEqual([reply]);
    expect(r.got[0].status).toBe(409);
  });

  it('holds a resend of a command still in flight until its reply comes', () => {
    const memory = new ReplyMemory();
    memory.begin('p1', 'c-1');
    const first = recorder();
    const second = recorder();
    expect(memory.replay('p1', 'c-1', first.deliver)).toBe(true);
    expect(memory.replay('p1', 'c-1', second.deliver)).toBe(true);
    // Nothing is delivered before the command settles.
    expect(first.got).toEqual([]);
    expect(second.got).toEqual([]);
    const reply = ok('c-1');
    const waiting = memory.settle('p1', 'c-1', reply);
    expect(waiting).toEqual([first.deliver, second.deliver]);
    for (const deliver of waiting) deliver(reply);
    expect(first.got).toEqual([reply]);
    expect(second.got).toEqual([reply]);
  });

  it.each([
    ['429', RoomErrorCode.TooFast, 429],
    ['503 mailbox full', RoomErrorCode.MailboxFull, 503],
    ['503 database unavailable', RoomErrorCode.DatabaseUnavailable, 503],
  ])('forgets a %s reply so a retry is tried afresh', (_what, code, status) => {
    const memory = new ReplyMemory();
    const reply = refused('c-3', code);
    expect(reply.status).toBe(status);
    memory.begin('p1', 'c-3');
    memory.settle('p1', 'c-3', reply);
    const r = recorder();
    expect(memory.replay('p1', 'c-3', r.deliver)).toBe(false);
    expect(r.got).toEqual([]);
  });

  it('still hands a 503 to the resends that waited for it', () => {
    const memory = new ReplyMemory();
    memory.begin('p1', 'c-4');
    const r = recorder();
    memory.replay('p1', 'c-4', r.deliver);
    expect(memory.settle('p1', 'c-4', refused('c-4', RoomErrorCode.MailboxFull))).toEqual([r.deliver]);
  });

  it('remembers the reply of a retry after a 503', () => {
    const memory = new ReplyMemory();
    memory.begin('p1', 'c-5');
    memory.settle('p1', 'c-5', refused('c-5', RoomErrorCode.DatabaseUnavailable));
    memory.begin('p1', 'c-5');
    const reply = ok('c-5');
    memory.settle('p1', 'c-5', reply);
    const r = recorder();
    expect(memory.replay('p1', 'c-5', r.deliver)).toBe(true);
    expect(r.got).toEqual([reply]);
  });

  it('keeps each seat apart', () => {
    const memory = new ReplyMemory();
    memory.begin('p1', 'c-1');
    memory.settle('p1', 'c-1', ok('c-1'));
    const r = recorder();
    expect(memory.replay('p2', 'c-1', r.deliver)).toBe(false);
    expect(r.got).toEqual([]);
  });

  it('forgets a seat entirely', () => {
    const memory = new ReplyMemory();
    memory.begin('p1', 'c-1');
    memory.settle('p1', 'c-1', ok('c-1'));
    memory.forgetSeat('p1');
    expect(memory.replay('p1', 'c-1', recorder().deliver)).toBe(false);
  });

  it('ignores a settle for an id it never began', () => {
    const memory = new ReplyMemory();
    expect(memory.settle('p1', 'c-9', ok('c-9'))).toEqual([]);
    expect(memory.replay('p1', 'c-9', recorder().deliver)).toBe(false);
  });

  it('drops the oldest ids of a seat past its bound', () => {
    const memory = new ReplyMemory(2);
    for (const id of ['a', 'b', 'c']) {
      memory.begin('p1', id);
      memory.settle('p1', id, ok(id));
    }
    expect(memory.replay('p1', 'a', recorder().deliver)).toBe(false);
    expect(memory.replay('p1', 'b', recorder().deliver)).toBe(true);
    expect(memory.replay('p1', 'c', recorder().deliver)).toBe(true);
  });
  it('keeps one body for replies alike, and makes a new frame for each resend', () => {
    const bodies = new ReplyBodies();
    const memory = new ReplyMemory(1000, bodies);
    for (const [id, data] of [['c-1', { accepted: true }], ['c-2', { accepted: true }], ['c-3', { accepted: false }]] as const) {
      memory.begin('p1', id);
      memory.settle('p1', id, ok(id, { ...data }));
    }
    expect(bodies.size).toBe(2);
    const r = recorder();
    for (const id of ['c-1', 'c-1', 'c-2']) memory.replay('p1', id, r.deliver);
    const [first, again, second] = r.got;
    expect(first).toStrictEqual(ok('c-1', { accepted: true }));
    expect(second).toStrictEqual(ok('c-2', { accepted: true }));
    expect(again).toStrictEqual(first);
    // The frames are each their own; what they carry is one frozen object.
    expect(again).not.toBe(first);
    expect(second.data).toBe(first.data);
    expect(Object.isFrozen(first.data)).toBe(true);
  });

  it('shares across rooms: every memory takes the one set of bodies', () => {
    const [a, b] = [new ReplyMemory(), new ReplyMemory()];
    for (const memory of [a, b]) {
      memory.begin('p1', 'c-1');
      memory.settle('p1', 'c-1', ok('c-1', { accepted: true }));
    }
    const r = recorder();
    a.replay('p1', 'c-1', r.deliver);
    b.replay('p1', 'c-1', r.deliver);
    expect(r.got[1].data).toBe(r.got[0].data);
  });

  it('replays what was sent, whatever becomes of the reply object afterwards', () => {
    const memory = new ReplyMemory(1000, new ReplyBodies());
    const data = { scores: [{ seat: 'p1', points: 3 }] };
    memory.begin('p1', 'c-1');
    memory.settle('p1', 'c-1', ok('c-1', data));
    data.scores[0].points = 99;
    data.scores.push({ seat: 'p2', points: 1 });
    const r = recorder();
    memory.replay('p1', 'c-1', r.deliver);
    expect(r.got).toStrictEqual([ok('c-1', { scores: [{ seat: 'p1', points: 3 }] })]);
    expect(() => (r.got[0].data as typeof data).scores.push({ seat: 'p3', points: 0 })).toThrow(TypeError);
  });

  it('shares no more than its bound of bodies, and still replays each reply exactly', () => {
    const bodies = new ReplyBodies(64);
    const memory = new ReplyMemory(10_000, bodies);
    const sent = new Map<string, ReplyFrame>();
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      const id = `c-${i}`;
      const reply = i % 10 === 0 ? refused(id, RoomErrorCode.SeatGone) : ok(id, { n: i, label: `answer ${i}` });
      sent.set(id, reply);
      memory.begin('p1', id);
      memory.settle('p1', id, reply);
      most = Math.max(most, bodies.size);
    }
    expect(most).toBe(64);
    const r = recorder();
    for (const id of sent.keys()) memory.replay('p1', id, r.deliver);
    expect(r.got).toStrictEqual([...sent.values()]);
  });

  it('keeps a body that recurs while bodies that differ every time pass through', () => {
    const memory = new ReplyMemory(1000, new ReplyBodies(4));
    let n = 0;
    const settle = (data: unknown) => {
      const id = `c-${n++}`;
      memory.begin('p1', id);
      memory.settle('p1', id, ok(id, data));
      return id;
    };
    const answers: string[] = [];
    for (let round = 0; round < 10; round++) {
      answers.push(settle({ accepted: true }));
      for (let ping = 0; ping < 3; ping++) settle({ serverTime: n });
    }
    const r = recorder();
    for (const id of answers) memory.replay('p1', id, r.deliver);
    // The least recently used goes first: the answer's body, used every fourth reply, stays.
    expect(new Set(r.got.map((reply) => reply.data)).size).toBe(1);
  });

  it('keeps a long body as its own, unshared', () => {
    const bodies = new ReplyBodies(64, 100);
    const memory = new ReplyMemory(1000, bodies);
    const reply = ok('c-1', { text: 'x'.repeat(100) });
    memory.begin('p1', 'c-1');
    memory.settle('p1', 'c-1', reply);
    expect(bodies.size).toBe(0);
    const r = recorder();
    memory.replay('p1', 'c-1', r.deliver);
    expect(r.got).toStrictEqual([reply]);
  });

  it("hands a snapshot each seat's latest successful replies, oldest first, as whole frames", () => {
    const memory = new ReplyMemory();
    const settle = (seat: string, reply: ReplyFrame) => {
      memory.begin(seat, reply.id as string);
      memory.settle(seat, reply.id as string, reply);
    };
    settle('p1', ok('a', { accepted: true }));
    settle('host', ok('h', {}));
    settle('p1', refused('b', RoomErrorCode.SeatGone));
    settle('p1', ok('c', { accepted: true }));
    memory.begin('p1', 'pending');
    settle('p1', ok('d', { accepted: false }));
    expect(memory.recentOk(2)).toStrictEqual([
      { seat: 'p1', reply: ok('c', { accepted: true }) },
      { seat: 'p1', reply: ok('d', { accepted: false }) },
      { seat: 'host', reply: ok('h', {}) },
    ]);
  });

  describe('against a plain model', () => {
    const seats = ['p1', 'p2', 'host'];
    const ids = ['a', 'b', 'c', 'd'];
    type Kind = 'accepted' | 'empty' | 'count' | 'refused' | 'tooFast' | 'busy' | 'down';
    const kinds: Kind[] = ['accepted', 'empty', 'count', 'refused', 'tooFast', 'busy', 'down'];
    const replyOf = (kind: Kind, id: string, n: number): ReplyFrame => {
      if (kind === 'accepted') return ok(id, { accepted: true });
      if (kind === 'empty') return ok(id, {});
      if (kind === 'count') return ok(id, { n });
      const code = { refused: RoomErrorCode.SeatGone, tooFast: RoomErrorCode.TooFast, busy: RoomErrorCode.MailboxFull, down: RoomErrorCode.DatabaseUnavailable }[kind];
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
      fc.record({ op: fc.constant('forgetSeat' as const), seat }),
    );

    /** Each seat's ids as a list, in the order first begun, each with its whole reply. */
    class Model {
      readonly seats = new Map<string, { id: string; reply?: ReplyFrame; waiting: number[] }[]>();
      constructor(private readonly perSeat: number) {}
      entry(seat: string, id: string) {
        return this.seats.get(seat)?.find((e) => e.id === id);
      }
      begin(seat: string, id: string): void {
        const list = this.seats.get(seat) ?? [];
        this.seats.set(seat, list);
        const at = list.findIndex((e) => e.id === id);
        if (at >= 0) list[at] = { id, waiting: [] };
        else list.push({ id, waiting: [] });
        if (list.length > this.perSeat) list.shift();
      }
      settle(seat: string, id: string, reply: ReplyFrame): number[] {
        const e = this.entry(seat, id);
        if (!e) return [];
        const waiting = e.reply ? [] : e.waiting;
        if (isRetryable(reply.status)) this.seats.set(seat, this.seats.get(seat)!.filter((x) => x !== e));
        else Object.assign(e, { reply, waiting: [] });
        return waiting;
      }
      recentOk(perSeat: number): SeatReply[] {
        return [...this.seats].flatMap(([seat, list]) =>
          list
            .filter((e) => e.reply?.status === 200)
            .slice(-perSeat)
            .map((e) => ({ seat, reply: e.reply! })),
        );
      }
    }

    it('replays, holds, forgets and bounds as the model does', () => {
      fc.assert(
        fc.property(
          fc.array(op, { maxLength: 80, size: 'max' }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 1, max: 3 }),
          fc.constantFrom(24, 512),
          (ops, perSeat, shared, maxText) => {
            const memory = new ReplyMemory(perSeat, new ReplyBodies(shared, maxText));
            const model = new Model(perSeat);
            // What each resend got: by the resend's number, from the memory and from the model.
            const got: [number, ReplyFrame][] = [];
            const want: [number, ReplyFrame][] = [];
            ops.forEach((o, no) => {
              if (o.op === 'begin') {
                memory.begin(o.seat, o.id);
                model.begin(o.seat, o.id);
              } else if (o.op === 'settle') {
                const r = replyOf(o.reply.kind, o.id, o.reply.n);
                for (const resend of memory.settle(o.seat, o.id, r)) resend(r);
                for (const waiter of model.settle(o.seat, o.id, r)) want.push([waiter, r]);
              } else if (o.op === 'replay') {
                const known = model.entry(o.seat, o.id);
                expect(memory.replay(o.seat, o.id, (r) => got.push([no, r]))).toBe(known !== undefined);
                if (known?.reply) want.push([no, known.reply]);
                else known?.waiting.push(no);
              } else if (o.op === 'remember') {
                const r = { ...replyOf(o.reply.kind, o.id ?? 'x', o.reply.n), id: o.id };
                memory.remember(o.seat, r);
                if (o.id !== null) {
                  model.begin(o.seat, o.id);
                  model.settle(o.seat, o.id, r);
                }
              } else {
                memory.forgetSeat(o.seat);
                model.seats.delete(o.seat);
              }
            });
            expect(got).toStrictEqual(want);
            for (const s of seats) {
              for (const i of ids) {
                const known = model.entry(s, i);
                const r = recorder();
                expect(memory.replay(s, i, r.deliver)).toBe(known !== undefined);
                expect(r.got).toStrictEqual(known?.reply ? [known.reply] : []);
              }
            }
            for (const k of [1, 2, 1000]) expect(memory.recentOk(k)).toStrictEqual(model.recentOk(k));
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
