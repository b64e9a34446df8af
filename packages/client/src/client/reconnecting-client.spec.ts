import { ROUNDS_TABLE as WIRE_CODES } from '../../test/rounds.codes.js';
import { CloseCode } from '../statuses.js';
import type { CommandFrame } from '../wire.types.js';
import { ClientSession, SessionEndedError, type ReplyTiming, type WireFrame } from './client-session.js';
import { SOCKET_OPEN, type FrameSocket, type Timers, type TokenStorage } from './frame-socket.js';
import { backoffDelay, ConnectionStatus, ReconnectingClient, ReconnectingClientOptions } from './reconnecting-client.js';

/** A socket that the test opens, feeds and closes by hand. It records what the client sent. */
class FakeSocket implements FrameSocket {
  readyState = 0;
  onopen: FrameSocket['onopen'] = null;
  onmessage: FrameSocket['onmessage'] = null;
  onclose: FrameSocket['onclose'] = null;
  onerror: FrameSocket['onerror'] = null;
  readonly sent: CommandFrame[] = [];
  closedWith?: number;

  constructor(readonly url: string) {}

  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }

  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }

  open(): void {
    this.readyState = SOCKET_OPEN;
    this.onopen?.({});
  }

  deliver(frame: unknown): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

/** Timers that fire only when the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  readonly due = new Map<number, { fn: () => void; ms: number }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const handle = this.next++;
    this.due.set(handle, { fn, ms });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }

  /** Runs the one pending timer and returns the delay it was set for. */
  fire(): number {
    const [[handle, timer]] = [...this.due.entries()];
    this.due.delete(handle);
    timer.fn();
    return timer.ms;
  }
}

class MemoryStorage implements TokenStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

interface TestEvents extends Record<string, unknown> {
  'thing.happened': { n: number };
}

function setup({
  token = 'tok-1' as string | null,
  stored = undefined as string | undefined,
  heartbeat = false as ReconnectingClientOptions['heartbeat'],
  wire = undefined as ReconnectingClientOptions['wire'],
  codes = undefined as ReconnectingClientOptions['codes'],
  reconnect = undefined as ReconnectingClientOptions['reconnect'],
  now = undefined as ReconnectingClientOptions['now'],
} = {}) {
  const sockets: FakeSocket[] = [];
  const timers = new ManualTimers();
  const storage = new MemoryStorage();
  if (stored) storage.setItem('seat:ABCDEF', stored);
  const statuses: ConnectionStatus[] = [];
  const client = new ReconnectingClient<TestEvents>({
    url: (t) => `ws://server/ws?token=${t}`,
    storage,
    storageKey: 'seat:ABCDEF',
    token: token ?? undefined,
    codes,
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    timers,
    random: () => 0.5,
    idPrefix: 'p',
    backoff: { initialMs: 100, maxMs: 1000 },
    heartbeat,
    wire,
    reconnect,
    now,
  });
  client.onStatus((s) => statuses.push(s));
  client.start();
  const last = () => sockets[sockets.length - 1];
  return { client, sockets, timers, storage, statuses, last };
}

const reply = (id: string, status = 200, data: unknown = {}) => ({ type: 'reply', id, status, data });

describe(ReconnectingClient.name, () => {
  it('keeps the token in storage and connects with it', () => {
    const { storage, last } = setup();
    expect(storage.getItem('seat:ABCDEF')).toBe('tok-1');
    expect(last().url).toBe('ws://server/ws?token=tok-1');
  });

  it('uses the stored token when none is given, and ends with 4001 when there is none', () => {
    const resumed = setup({ token: null, stored: 'tok-kept' });
    expect(resumed.last().url).toBe('ws://server/ws?token=tok-kept');
    const none = setup({ token: null });
    expect(none.sockets).toHaveLength(0);
    expect(none.client.status).toMatchObject({ state: 'ended', closeCode: CloseCode.tokenInvalid });
  });

  it('routes replies by id and events by type, with their payloads typed', async () => {
    const { client, last } = setup();
    last().open();
    const seen: number[] = [];
    client.on('thing.happened', (data, frame) => seen.push(data.n * 10 + frame.seq));
    const a = client.send('x.do', { v: 1 });
    const b = client.send('x.do', { v: 2 });
    expect(last().sent.map((f) => f.id)).toEqual(['p-1', 'p-2']);
    last().deliver(reply('p-2', 409));
    last().deliver({ type: 'thing.happened', seq: 1, data: { n: 4 } });
    last().deliver(reply('p-1', 200, { ok: 1 }));
    await expect(a).resolves.toMatchObject({ id: 'p-1', status: 200, data: { ok: 1 } });
    await expect(b).resolves.toMatchObject({ id: 'p-2', status: 409 });
    expect(seen).toEqual([41]);
  });

  it('queues a command sent before the socket opens and sends it once on open', () => {
    const { client, last } = setup();
    void client.send('x.do');
    expect(last().sent).toHaveLength(0);
    last().open();
    expect(last().sent.map((f) => f.id)).toEqual(['p-1']);
  });

  it('after a drop, reconnects with backoff and resends each unanswered command once, under the same id', async () => {
    const { client, sockets, timers, last } = setup();
    last().open();
    last().deliver({ type: 'room.state', seq: 1, data: {} });
    const answered = client.send('x.answered');
    const unanswered = client.send('x.unanswered', { choice: 2 });
    last().deliver(reply('p-1'));
    await answered;
    last().drop(1006);
    expect(client.status).toMatchObject({ state: 'reconnecting', closeCode: 1006 });
    // A command sent while the connection is down waits for the next socket.
    const whileDown = client.send('x.later');
    expect(timers.fire()).toBe(backoffDelay(0, 0.5, 100, 1000));
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([
      { id: 'p-2', type: 'x.unanswered', data: { choice: 2 } },
      { id: 'p-3', type: 'x.later', data: {} },
    ]);
    last().deliver(reply('p-2'));
    last().deliver(reply('p-3'));
    await expect(unanswered).resolves.toMatchObject({ id: 'p-2', status: 200 });
    await expect(whileDown).resolves.toMatchObject({ id: 'p-3' });
    // Nothing is pending any more, so a third socket sends nothing.
    last().drop(1001);
    timers.fire();
    last().open();
    expect(last().sent).toEqual([]);
  });

  it('a reply that arrives twice settles the command once and is otherwise ignored', async () => {
    const { client, last } = setup();
    last().open();
    const p = client.send('x.do');
    last().deliver(reply('p-1', 200, { first: true }));
    last().deliver(reply('p-1', 200, { first: false }));
    last().deliver({ type: 'reply', id: null, status: 400 });
    last().deliver('not json at all');
    await expect(p).resolves.toMatchObject({ data: { first: true } });
  });

  it('backs off exponentially while attempts fail, and starts over once a frame got through', () => {
    const { timers, last } = setup();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      last().drop(1006);
      delays.push(timers.fire());
    }
    expect(delays).toEqual([75, 150, 300, 600, 750, 750]);
    last().open();
    last().deliver({ type: 'room.state', seq: 1, data: {} });
    last().drop(1012);
    expect(timers.fire()).toBe(75);
  });

  it('jitters each delay between half and all of its step', () => {
    expect(backoffDelay(3, 0, 100, 10_000)).toBe(400);
    expect(backoffDelay(3, 0.999999, 100, 10_000)).toBe(800);
    expect(backoffDelay(40, 0.5, 100, 10_000)).toBe(7500);
  });

  it.each([CloseCode.tokenInvalid, CloseCode.seatGone, CloseCode.roomClosed])(
    'does not reconnect after close %i, forgets the token and fails what waits',
    async (code) => {
      const { client, sockets, timers, storage, last } = setup();
      last().open();
      const p = client.send('x.do');
      last().drop(code);
      await expect(p).rejects.toBeInstanceOf(SessionEndedError);
      expect(client.status).toMatchObject({ state: 'ended', closeCode: code });
      expect(timers.due.size).toBe(0);
      expect(sockets).toHaveLength(1);
      expect(storage.getItem('seat:ABCDEF')).toBeNull();
      await expect(client.send('x.again')).rejects.toThrow(/ended/);
    },
  );

  it('does not reconnect after 4010 (a newer socket of the seat took over) but keeps the token, so a reload takes the seat back', async () => {
    const { client, sockets, timers, storage, last } = setup();
    const token = storage.getItem('seat:ABCDEF');
    expect(token).not.toBeNull();
    last().open();
    const p = client.send('x.do');
    last().drop(CloseCode.replaced);
    await expect(p).rejects.toBeInstanceOf(SessionEndedError);
    expect(client.status).toMatchObject({ state: 'ended', closeCode: CloseCode.replaced });
    expect(timers.due.size).toBe(0);
    expect(sockets).toHaveLength(1);
    expect(storage.getItem('seat:ABCDEF')).toBe(token);
  });

  it('retryNow skips the rest of the backoff', () => {
    const { client, sockets, timers, last } = setup();
    last().open();
    last().drop(1006);
    expect(timers.due.size).toBe(1);
    client.retryNow();
    expect(timers.due.size).toBe(0);
    expect(sockets).toHaveLength(2);
    // While a socket is being opened, another nudge does nothing.
    client.retryNow();
    expect(sockets).toHaveLength(2);
  });

  it('close() ends it from this side without reconnecting', async () => {
    const { client, timers, last, statuses } = setup();
    last().open();
    const p = client.send('x.do');
    client.close();
    await expect(p).rejects.toBeInstanceOf(SessionEndedError);
    expect(last().closedWith).toBe(1000);
    expect(timers.due.size).toBe(0);
    expect(statuses[statuses.length - 1].state).toBe('ended');
  });
});

describe('wire profiles', () => {
  it('asks for the profile and decodes each socket with a memory of its own', () => {
    const { client, sockets, timers, last } = setup({ wire: 'compact-v2', codes: WIRE_CODES });
    expect(last().url).toBe('ws://server/ws?token=tok-1&wire=compact-v2');
    const seen: unknown[] = [];
    for (const type of ['rounds.state', 'round.progress']) client.on(type, (data, e) => seen.push([type, e.seq, data]));
    last().open();
    const state = ['rounds.state', { j: 2 }];
    last().deliver(state);
    last().deliver([1, { c: 1 }]);
    last().drop(1006);
    timers.fire();
    last().open();
    last().deliver(state);
    expect(seen).toEqual([
      ['rounds.state', 1, { wire: 'compact-v2' }],
      ['round.progress', 2, { moved: 1 }],
      ['rounds.state', 1, { wire: 'compact-v2' }],
    ]);
    // A frame that cannot be decoded replaces the socket, and the status says why.
    last().deliver([99]);
    expect(sockets[1].closedWith).toBe(4000);
    expect(client.status).toMatchObject({
      state: 'reconnecting',
      closeCode: 1006,
      dropped: { why: 'undecodable', message: expect.stringMatching(/^a frame could not be decoded as compact-v2: /) },
    });
  });
});

describe('timing hooks', () => {
  /** A clock that moves only when the test moves it. */
  const clock = () => {
    const c = { ms: 1000, now: () => c.ms };
    return c;
  };

  it('reports a reply with when its command was first and last written and when the reply came, across a resend', async () => {
    const c = clock();
    const { client, timers, last } = setup({ now: c.now });
    const timings: ReplyTiming[] = [];
    client.onReply((t) => timings.push(t));
    last().open();
    const p = client.send('x.do', { v: 1 });
    c.ms = 1500;
    last().drop(1006);
    timers.fire();
    c.ms = 2000;
    last().open();
    c.ms = 2250.5;
    last().deliver(reply('p-1', 201));
    await expect(p).resolves.toMatchObject({ status: 201 });
    expect(timings).toEqual([
      { id: 'p-1', type: 'x.do', reply: reply('p-1', 201), firstSentAt: 1000, lastSentAt: 2000, repliedAt: 2250.5, sends: 2 },
    ]);
  });

  it('reports every frame sent and received with its text, its UTF-8 bytes and its time', async () => {
    const c = clock();
    const { client, last } = setup({ now: c.now });
    const frames: WireFrame[] = [];
    client.onFrame((f) => frames.push(f));
    last().open();
    const p = client.send('x.say', { text: 'é' });
    c.ms = 1010;
    last().deliver(reply('p-1'));
    await p;
    const sent = '{"id":"p-1","type":"x.say","data":{"text":"é"}}';
    expect(frames).toEqual([
      { direction: 'sent', text: sent, bytes: sent.length + 1, at: 1000, frame: { id: 'p-1', type: 'x.say', data: { text: 'é' } } },
      {
        direction: 'received',
        text: JSON.stringify(reply('p-1')),
        bytes: JSON.stringify(reply('p-1')).length,
        at: 1010,
        frame: reply('p-1'),
      },
    ]);
  });

  it("reports a compact frame's text as the wire carried it beside the JSON frame it decodes to", () => {
    const { client, last } = setup({ wire: 'compact-v2', codes: WIRE_CODES });
    const frames: WireFrame[] = [];
    client.onFrame((f) => frames.push(f));
    last().open();
    last().deliver(['rounds.state', { j: 2 }]);
    last().deliver([1, { c: 1 }]);
    expect(frames.map((f) => [f.direction, f.text, f.bytes])).toEqual([
      ['received', '["rounds.state",{"j":2}]', 24],
      ['received', '[1,{"c":1}]', 11],
    ]);
    expect(frames[1].frame).toMatchObject({ type: 'round.progress', seq: 2, data: { moved: 1 } });
  });

  it('sendAs sends under the id given, so a command can be asked for again under its own id', async () => {
    const { client, last } = setup();
    last().open();
    const first = client.sendAs('mine-7', 'x.do', { v: 1 });
    last().deliver(reply('mine-7', 200, { n: 1 }));
    await expect(first).resolves.toMatchObject({ data: { n: 1 } });
    const again = client.sendAs('mine-7', 'x.do', { v: 1 });
    expect(client.waiting).toBe(1);
    last().deliver(reply('mine-7', 200, { n: 1 }));
    await expect(again).resolves.toMatchObject({ id: 'mine-7' });
    expect(last().sent.map((f) => f.id)).toEqual(['mine-7', 'mine-7']);
  });

  it('onAnyEvent hears every event, whatever its type', () => {
    const { client, last } = setup();
    const types: string[] = [];
    client.onAnyEvent((e) => types.push(e.type));
    last().open();
    last().deliver({ type: 'a.b', seq: 1, data: {} });
    last().deliver(reply('p-9'));
    last().deliver({ type: 'c.d', seq: 2, data: {} });
    expect(types).toEqual(['a.b', 'c.d']);
  });
});

describe('reconnect: false', () => {
  it('ends with the close that ended its one socket, keeps a good token, and fails what waits', async () => {
    const { client, sockets, timers, storage, last } = setup({ reconnect: false });
    last().open();
    const p = client.send('x.do');
    last().drop(1012);
    expect(client.status).toMatchObject({ state: 'ended', closeCode: 1012 });
    await expect(p).rejects.toBeInstanceOf(SessionEndedError);
    expect(timers.due.size).toBe(0);
    expect(sockets).toHaveLength(1);
    expect(storage.getItem('seat:ABCDEF')).toBe('tok-1');
  });

  it('forgets the token after a close that says it is no good', () => {
    const { client, storage, last } = setup({ reconnect: false });
    last().open();
    last().drop(CloseCode.seatGone);
    expect(client.status).toMatchObject({ state: 'ended', closeCode: CloseCode.seatGone });
    expect(storage.getItem('seat:ABCDEF')).toBeNull();
  });
});

describe('heartbeat', () => {
  const heartbeat = { idleMs: 1000, timeoutMs: 300, connectMs: 2000 };

  it('pings a quiet socket and keeps it while frames come', () => {
    const { timers, sockets, last } = setup({ heartbeat });
    last().open();
    last().deliver({ type: 'room.state', seq: 1, data: {} });
    expect(timers.fire()).toBe(1000);
    expect(last().sent).toEqual([expect.objectContaining({ type: 'ping' })]);
    last().deliver({ type: 'reply', id: last().sent[0].id, status: 200, data: { serverTime: 1 } });
    // The reply re-armed the quiet timer, and nothing was dropped.
    expect([...timers.due.values()].map((t) => t.ms)).toEqual([1000]);
    expect(sockets).toHaveLength(1);
  });

  it('drops a socket that stays silent after the ping, and reconnects', () => {
    const { client, timers, sockets, last } = setup({ heartbeat });
    last().open();
    last().deliver({ type: 'room.state', seq: 1, data: {} });
    const pending = client.send('x.do');
    timers.fire(); // quiet: ping
    expect(timers.fire()).toBe(300); // no answer: dead
    expect(sockets[0].closedWith).toBe(4000);
    expect(client.status).toMatchObject({
      state: 'reconnecting',
      closeCode: 1006,
      dropped: { why: 'silent', message: 'no frame in time' },
    });
    timers.fire(); // the backoff
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([expect.objectContaining({ id: 'p-1', type: 'x.do' })]);
    void pending;
  });

  it('gives up on a socket whose first frame does not come', () => {
    const { client, timers, sockets } = setup({ heartbeat });
    expect(timers.fire()).toBe(2000);
    expect(sockets[0].closedWith).toBe(4000);
    expect(client.status.state).toBe('reconnecting');
  });
});

describe(ClientSession.name, () => {
  it('refuses a second command under an id that still waits', async () => {
    const session = new ClientSession();
    void session.request({ id: 'a', type: 't', data: {} });
    await expect(session.request({ id: 'a', type: 't', data: {} })).rejects.toThrow(/already waiting/);
    expect(session.waiting).toBe(1);
  });

  it('hands every event to onAny listeners, whatever its type', () => {
    const session = new ClientSession();
    const types: string[] = [];
    session.onAny((e) => types.push(e.type));
    session.receive(JSON.stringify({ type: 'a.b', seq: 1, data: {} }));
    session.receive(JSON.stringify({ type: 'c.d', seq: 2, data: {} }));
    expect(types).toEqual(['a.b', 'c.d']);
  });
});
