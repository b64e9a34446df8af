import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { turnCork } from './turn-cork';

/** These tests use real sockets on loopback, because what the cork changes is how many writes reach the kernel. */
describe('TurnCork', () => {
  let server: WebSocketServer;
  let client: WebSocket;
  let served: WebSocket;

  beforeEach(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    served = await accepted;
    await new Promise((resolve) => client.once('open', resolve));
  });

  afterEach(async () => {
    client.terminate();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Counts the writes the served socket hands to the kernel (one writev or write each). */
  function countWrites(): () => number {
    const socket = (served as unknown as { _socket: { _writev: (...args: unknown[]) => unknown; _write: (...args: unknown[]) => unknown } })
      ._socket;
    let writes = 0;
    const writev = socket._writev.bind(socket);
    const write = socket._write.bind(socket);
    socket._writev = (...args: unknown[]) => (writes++, writev(...args));
    socket._write = (...args: unknown[]) => (writes++, write(...args));
    return () => writes;
  }

  function received(n: number): Promise<string[]> {
    const frames: string[] = [];
    return new Promise((resolve) =>
      client.on('message', (data) => {
        frames.push(data.toString());
        if (frames.length === n) resolve(frames);
      }),
    );
  }

  it('sends the frames of one turn in one write, in order', async () => {
    const writes = countWrites();
    const got = received(3);
    for (const text of ['one', 'two', 'three']) {
      turnCork.hold(served);
      served.send(text);
    }
    expect(writes()).toBe(0);
    expect(turnCork.holding).toBe(1);
    expect(await got).toEqual(['one', 'two', 'three']);
    expect(writes()).toBe(1);
    expect(turnCork.holding).toBe(0);
  });

  it('lets each turn go at its end: frames of the next turn are a write of their own', async () => {
    const writes = countWrites();
    const got = received(2);
    turnCork.hold(served);
    served.send('first turn');
    await new Promise((resolve) => setImmediate(resolve));
    turnCork.hold(served);
    served.send('second turn');
    expect(await got).toEqual(['first turn', 'second turn']);
    expect(writes()).toBe(2);
  });

  it('without the cork, every frame is a write (what the cork saves)', async () => {
    const writes = countWrites();
    const got = received(3);
    for (const text of ['one', 'two', 'three']) served.send(text);
    await got;
    expect(writes()).toBe(3);
  });
});
