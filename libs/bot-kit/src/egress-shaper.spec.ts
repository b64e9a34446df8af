import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { EgressShaper } from './egress-shaper';

// Rates are never asserted, because how many bytes a second get through is the bench's figure on a
// given machine, not a test's. What is deterministic is asserted: the bytes arrive intact and in
// order, and the bound holds.

/** Byte i of stream s, in a byte pattern that shows any loss, duplication or reordering. */
function pattern(stream: number, length: number): Buffer {
  const b = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) b[i] = (i * 31 + stream * 7 + (i >> 8)) & 0xff;
  return b;
}

/**
 * A server that sends each connection its own pattern (the n-th connection gets stream n), and
 * hashes what it receives.
 */
async function patternServer(length: number): Promise<{ server: Server; port: number; received: Promise<string>[]; sockets: Socket[] }> {
  const received: Promise<string>[] = [];
  const sockets: Socket[] = [];
  let n = 0;
  const server = createServer((socket) => {
    const stream = n++;
    sockets.push(socket);
    const hash = createHash('sha256');
    received.push(
      new Promise((resolve) => {
        socket.on('data', (d) => hash.update(d));
        socket.on('end', () => resolve(hash.digest('hex')));
      }),
    );
    socket.on('error', () => undefined);
    socket.end(pattern(stream, length));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port, received, sockets };
}

function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Everything the socket receives until the other side ends. */
function readAll(socket: Socket): Promise<Buffer> {
  const parts: Buffer[] = [];
  socket.on('data', (d) => parts.push(d));
  return new Promise((resolve, reject) => {
    socket.once('end', () => resolve(Buffer.concat(parts)));
    socket.once('error', reject);
  });
}

describe(EgressShaper.name, () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  it('delivers every connection its bytes intact and in order, sharing one bucket', async () => {
    const length = 300 * 1024;
    const up = await patternServer(length);
    stops.push(() => new Promise<void>((r) => up.server.close(() => r())));
    const shaper = new EgressShaper({ host: '127.0.0.1', port: up.port }, { mbps: 40 });
    await shaper.start();
    stops.push(() => shaper.stop());

    const clients = await Promise.all([0, 1, 2].map(() => connect(shaper.port)));
    const bodies = await Promise.all(clients.map(readAll));
    // The server numbers connections as it accepts them, so match each body to its stream by content.
    const expected = [0, 1, 2].map((s) => pattern(s, length));
    for (const body of bodies) {
      expect(body.length).toBe(length);
      expect(expected.some((e) => e.equals(body))).toBe(true);
    }
    expect(new Set(bodies.map((b) => b[0] + b[1] * 256)).size).toBe(3);
    expect(shaper.stats()).toMatchObject({ connections: 3, deliveredBytes: 3 * length });
    for (const c of clients) c.destroy();
  });

  it('passes client-to-server bytes unshaped and unchanged', async () => {
    const up = await patternServer(0);
    stops.push(() => new Promise<void>((r) => up.server.close(() => r())));
    const shaper = new EgressShaper({ host: '127.0.0.1', port: up.port }, { mbps: 0.01 });
    await shaper.start();
    stops.push(() => shaper.stop());

    const client = await connect(shaper.port);
    const sent = pattern(9, 200 * 1024);
    client.end(sent);
    await until(() => up.received.length === 1);
    expect(await up.received[0]).toBe(createHash('sha256').update(sent).digest('hex'));
    expect(shaper.stats().passedBytes).toBe(sent.length);
    client.destroy();
  });

  it('never holds more than its bound: a slow link backs up into TCP, and nothing is lost when it opens', async () => {
    const length = 16 * 1024 * 1024;
    const bufferBytes = 32 * 1024;
    const up = await patternServer(length);
    stops.push(() => new Promise<void>((r) => up.server.close(() => r())));
    const shaper = new EgressShaper({ host: '127.0.0.1', port: up.port }, { mbps: 0.5, bufferBytes });
    await shaper.start();
    stops.push(() => shaper.stop());

    const client = await connect(shaper.port);
    const body = readAll(client);
    // The server writes far faster than 0.5 Mbit/s, so the queue fills and the shaper stops reading.
    await once(shaper, 'pause');
    expect(shaper.stats().maxHeldBytes).toBeLessThanOrEqual(bufferBytes);
    expect(shaper.stats().heldBytes).toBeLessThanOrEqual(bufferBytes);
    // The server's socket could not hand everything to the kernel yet, because the link pushed back.
    await until(() => up.sockets.length === 1);
    expect(up.sockets[0].writableLength).toBeGreaterThan(0);

    shaper.mbps = 400;
    const got = await body;
    expect(got.equals(pattern(0, length))).toBe(true);
    const stats = shaper.stats();
    expect(stats.maxHeldBytes).toBeLessThanOrEqual(bufferBytes);
    expect(stats.pauses).toBeGreaterThan(0);
    expect(stats.deliveredBytes).toBe(length);
    client.destroy();
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new EgressShaper({ host: '127.0.0.1', port: 1 }, { mbps: 0 })).toThrow(/mbps/);
  });
});

/** Waits for a condition that an event makes true, checking on every turn of the loop. */
async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((r) => setImmediate(r));
}
