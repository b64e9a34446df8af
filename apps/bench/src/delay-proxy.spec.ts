import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { DelayProxy } from '@app/bot-kit';
import { percentile } from './stats';
import { selectOneRoundTrips } from './yardstick';

/** Round trips of one byte through `port`, one after another. */
async function echoRoundTrips(port: number, n: number): Promise<number[]> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
  socket.setNoDelay(true);
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

function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
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

  it('makes a round trip take twice the delay, within a few ms', async () => {
    const proxy = new DelayProxy({ host: '127.0.0.1', port: echoPort }, 25);
    const port = await proxy.start();
    try {
      const samples = await echoRoundTrips(port, 15);
      // Never faster than the two delays; typically a millisecond or two above.
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(49);
      expect(median(samples)).toBeGreaterThanOrEqual(50);
      expect(median(samples)).toBeLessThan(55);
    } finally {
      await proxy.stop();
    }
  });

  it('adds next to nothing with no delay', async () => {
    const proxy = new DelayProxy({ host: '127.0.0.1', port: echoPort }, 0);
    const port = await proxy.start();
    try {
      expect(median(await echoRoundTrips(port, 15))).toBeLessThan(5);
    } finally {
      await proxy.stop();
    }
  });

  it('puts PostgreSQL 2 x 20 ms away: the select-1 yardstick reads about 40 ms', async () => {
    const url = new URL(`${process.env.TEST_PG_URL}/postgres`);
    const proxy = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 20);
    await proxy.start();
    try {
      const { samples } = await selectOneRoundTrips(proxy.proxiedUrl(url.toString()), 20);
      expect(samples).toHaveLength(20);
      expect(Math.min(...samples)).toBeGreaterThanOrEqual(39);
      expect(median(samples)).toBeLessThan(45);
    } finally {
      await proxy.stop();
    }
  });
});
