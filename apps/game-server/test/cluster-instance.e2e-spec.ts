import { hostname } from 'node:os';
import { SeatClient, HttpApi, UpgradeRefused } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { startTestServer, TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { createTestDatabase } from '../../../test/support/database';
import { queryDb, waitFor } from './support';

/**
 * Issue 14 items 1 to 3, in one process: /health says which instance answered, the socket URL
 * carries the room's code for a proxy and a wrong one is refused, and every instance writes its
 * row of the registry that the admin API shows.
 */
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('one instance among several', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s), { instanceName: 'blue-1' });

  it('says its name and pid on /health', async () => {
    const health = await new HttpApi(server.url).request('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', instance: 'blue-1', pid: process.pid });
  });

  describe('the socket URL with room=CODE', () => {
    let code: string;
    let hostToken: string;
    beforeAll(async () => {
      ({ code, hostToken } = await new HttpApi(server.url).createRoom({
        hostName: 'Host',
        questionCount: 3,
        secondsPerQuestion: 10,
        revealSeconds: 0,
      }));
    });

    it('accepts the token’s own code, in any case', async () => {
      for (const room of [code, code.toLowerCase()]) {
        const client = await SeatClient.connect(server.url, hostToken, { room });
        expect((await client.nextEvent('room.state')).data).toMatchObject({ code });
        client.close();
        await client.closed;
      }
    });

    it('refuses another room’s code with 401, before any socket exists', async () => {
      const other = await new HttpApi(server.url).createRoom({
        hostName: 'Other',
        questionCount: 3,
        secondsPerQuestion: 10,
        revealSeconds: 0,
      });
      for (const room of [other.code, 'ZZZZZZ', '', 'not a code at all']) {
        const refused = await SeatClient.connect(server.url, hostToken, { room }).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refused).toBeInstanceOf(UpgradeRefused);
        expect((refused as UpgradeRefused).status).toBe(401);
      }
    });

    it('still refuses a forged token with 401 when the code is right', async () => {
      const forged = hostToken.slice(0, -2) + (hostToken.endsWith('AA') ? 'BB' : 'AA');
      await expect(SeatClient.connect(server.url, forged, { room: code })).rejects.toMatchObject({ status: 401 });
    });
  });

  it('lists itself in the admin API, with its url, pid, rooms and health', async () => {
    const { status, body } = await new HttpApi(server.url).request('GET', '/admin/api/instances', undefined, admin);
    expect(status).toBe(200);
    expect(body.instances).toEqual([
      expect.objectContaining({
        name: 'blue-1',
        url: `http://${hostname()}:${server.port}`,
        pid: process.pid,
        health: 'ok',
        status: 'up',
        self: true,
        seenSecondsAgo: 0,
      }),
    ]);
    expect(body.instances[0].rooms).toBe(
      (await new HttpApi(server.url).request('GET', '/admin/api/overview', undefined, admin)).body.rooms,
    );
  });

  it('keeps the instances list for operators only', async () => {
    expect((await new HttpApi(server.url).request('GET', '/admin/api/instances')).status).toBe(401);
  });
});

describe('two instances on one database', () => {
  let databaseUrl: string;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    a = await startTestServer({ databaseUrl, instanceName: 'a', instanceUrl: 'http://a.internal:3000', heartbeatMs: 1000 });
    // A beat every second: another instance reads silent only after three missed ones, which even a busy machine does not miss.
    b = await startTestServer({ databaseUrl, instanceName: 'b', heartbeatMs: 1000 });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  async function instancesSeenBy(server: RunningServer): Promise<Record<string, any>> {
    const { body } = await new HttpApi(server.url).request('GET', '/admin/api/instances', undefined, admin);
    return Object.fromEntries((body.instances as any[]).map((i) => [i.name, i]));
  }

  it('each shows both, whichever serves the console', async () => {
    await waitFor(
      async () => Object.keys(await instancesSeenBy(a)).length === 2 && Object.keys(await instancesSeenBy(b)).length === 2,
      'each instance to see the other',
    );
    const seenByA = await instancesSeenBy(a);
    const seenByB = await instancesSeenBy(b);
    expect(seenByA.a).toMatchObject({ url: 'http://a.internal:3000', self: true, status: 'up' });
    expect(seenByA.b).toMatchObject({ url: `http://${hostname()}:${b.port}`, self: false, status: 'up', health: 'ok' });
    expect(seenByB.a).toMatchObject({ self: false, status: 'up' });
    expect(seenByB.b).toMatchObject({ self: true });
  });

  it('shows another instance’s rooms as its heartbeat reported them', async () => {
    const api = new HttpApi(b.url);
    const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 });
    await api.join(room.code, 'Ann'); // activates the room on b
    await waitFor(async () => (await instancesSeenBy(a)).b.rooms === 1, 'a to see b holding one room');
  });

  it('writes one row per instance, and a stopped instance says so', async () => {
    const c = await startTestServer({ databaseUrl, instanceName: 'c' });
    await c.stop();
    const rows = await queryDb<{ name: string; health: string }>({ databaseUrl }, 'SELECT name, health FROM instances ORDER BY name');
    expect(rows).toEqual([
      { name: 'a', health: 'ok' },
      { name: 'b', health: 'ok' },
      { name: 'c', health: 'stopped' },
    ]);
    await waitFor(async () => (await instancesSeenBy(a)).c?.status === 'stopped', 'a to see c stopped');
  });
});
