import { randomBytes } from 'node:crypto';
import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { DelayProxy } from '@app/bot-kit';
import { selectOneRoundTrips } from './yardstick';

/**
 * How early a timer may fire as `performance.now()` sees it, because Node counts timers in whole
 * milliseconds of the loop's clock. A lower bound with this tolerance is deterministic. How much
 * later than its delay a chunk arrives depends on the machine, so that is the bench's figure (the
 * yardstick it prints), never a test's limit.
 */
const TIMER_TOLERANCE_MS = 2;

function connect(port: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => resolve(s));
    s.setNoDelay(true);
    s.once('error', reject);
  });
}

/** Times round trips of one byte through `port`, one after another. */
async function echoRoundTrips(port: number, n: number): Promise<number[]> {
  const socket = await connect(port);
  const samples: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.write('x');
      });
      samples.push(performance.now() - t);
    }
  } finally {
    socket.destroy();
  }
  return samples;
}

/** Writes `chunks` through `port` back to back and resolves with every byte echoed back. */
async function echoed(port: number, chunks: Buffer[]): Promise<Buffer> {
  const socket = await connect(port);
  const total = chunks.reduce((n, c) => n + c.length, 0);
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      const back: Buffer[] = [];
      let got = 0;
      socket.on('data', (d) => {
        back.push(d);
        got += d.length;
        if (got >= total) resolve(Buffer.concat(back));
      });
      socket.once('error', reject);
      for (const c of chunks) socket.write(c);
    });
  } finally {
    socket.destroy();
  }
}

describe(DelayProxy.name, () => {
  let echo: Server;
  let echoPort: number;

  beforeAll(async () => {
    echo = createServer((s) => {
      s.setNoDelay(true);
      s.on('data', (d) => s.write(d));
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
    echoPort = (echo.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => echo.close(() => r()));
  });

  it.each([0, 10])('carries every byte intact and in order, both ways, with a delay of %i ms', async (delayMs) => {
    const proxy = new DelayProxy({ host: '127.0.0.1', port: echoPort }, delayMs);
    const port = await proxy.start();
    try {
      const chunks = Array.from({ length: 200 }, (_, i) => randomBytes(1 + ((i * 997) % 4096)));
      expect((await echoed(port, chunks)).equals(Buffer.concat(chunks))).toBe(true);
    } finally {
      await proxy.stop();
    }
  });

  it('never delivers a chunk before its delay, in either direction', async () => {
    const delayMs = 25;
    // A sink that says when a byte arrives, so that the way out is timed on its own.
    let arrived: (at: number) => void = () => undefined;
    const sink = createServer((s) => {
      s.setNoDelay(true);
      s.on('data', () => arrived(performance.now()));
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
    const toSink = new DelayProxy({ host: '127.0.0.1', port: (sink.address() as AddressInfo).port }, delayMs);
    const toEcho = new DelayProxy({ host: '127.0.0.1', port: echoPort }, delayMs);
    try {
      const socket = await connect(await toSink.start());
      const oneWay: number[] = [];
      for (let i = 0; i < 10; i++) {
        const arrival = new Promise<number>((resolve) => (arrived = resolve));
        const sentAt = performance.now();
        socket.write('x');
        oneWay.push((await arrival) - sentAt);
      }
      socket.destroy();
      expect(Math.min(...oneWay)).toBeGreaterThanOrEqual(delayMs - TIMER_TOLERANCE_MS);
      // A round trip goes there and back, so it takes two delays.
      const samples = await echoRoundTrips(await toEcho.start(), 10);
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(2 * (delayMs - TIMER_TOLERANCE_MS));
    } finally {
      await toSink.stop();
      await toEcho.stop();
      await new Promise<void>((r) => sink.close(() => r()));
    }
  });

  it('puts PostgreSQL 2 x 20 ms away: no select-1 yardstick reading is shorter', async () => {
    const url = new URL(`${process.env.TEST_PG_URL}/postgres`);
    const proxy = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 20);
    await proxy.start();
    try {
      const { samples } = await selectOneRoundTrips(proxy.proxiedUrl(url.toString()), 20);
      expect(samples).toHaveLength(20);
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(2 * (20 - TIMER_TOLERANCE_MS));
    } finally {
      await proxy.stop();
    }
  });
});
