import { errorReply, okReply, ReplyFrame, RoomErrorCode, RoomException } from '@app/protocol';
import { ReplyMemory } from './reply-memory';

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
});
