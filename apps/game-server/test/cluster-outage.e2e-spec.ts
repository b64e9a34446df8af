import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClusterScript, DelayProxy, HttpApi } from '@app/bot-kit';
import { createTestDatabase } from '../../../test/support/database';
import { startTestCluster } from '../../../test/support/test-cluster';
import { finishedGames, SeatedRoom, seatIn, waitFor } from './support';

const LAPSED = 'leases not renewed for longer than a lease';

/**
 * Issue 20 item 1 in the cluster: `npm run cluster` with two instances behind HAProxy, their
 * PostgreSQL behind a real TCP proxy that the test cuts, then silences, each time for longer than
 * the rooms' leases. The rooms stay with their instances and every socket stays open (HAProxy
 * keeps the tunnels of instances it marks not ready), every command is answered, and once
 * PostgreSQL is back each instance renews its own leases, nobody takes anybody's rooms, and the
 * games finish with every acknowledged answer recorded.
 */
jest.setTimeout(120_000);

describe('a cluster whose PostgreSQL goes away for longer than the lease', () => {
  let cluster: ClusterScript;
  let link: DelayProxy;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const url = new URL(databaseUrl);
    link = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 0);
    await link.start();
    cluster = await startTestCluster(2, { LEASE_SECONDS: '2' }, { databaseUrl: link.proxiedUrl(databaseUrl) });
  });
  afterAll(async () => {
    link?.restore();
    await cluster?.stop();
    await link?.stop();
  });

  const lapses = (instance: string): number => {
    const file = join(cluster.dataDir, `${instance}.log`);
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.includes(LAPSED)).length
      : 0;
  };
  const ready = async (url: string) => (await fetch(`${url}/health/ready`).catch(() => undefined))?.status;

  /** Which instance has the room live, asking each directly. */
  async function owner(code: string): Promise<string> {
    const holders = [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(code)).map(([name]) => name);
    expect(holders).toHaveLength(1);
    return holders[0];
  }

  /** A started room of three players, all connected through the proxy. */
  async function startedRoom(room: { code: string; roomId: string; hostToken: string }): Promise<SeatedRoom> {
    const seated = await seatIn(cluster.proxy, room, ['Ann', 'Bob', 'Cy'], { throughProxy: true });
    expect((await seated.host.send('room.start')).status).toBe(200);
    await seated.host.nextEvent('question.open');
    return seated;
  }

  async function outageLongerThanLease(start: () => void): Promise<void> {
    const before = cluster.instances.map((i) => lapses(i.instance));
    start();
    await waitFor(
      () => cluster.instances.every((i, n) => lapses(i.instance) > before[n]),
      'both instances to say their leases ran out',
      30_000,
    );
  }

  async function whileDown(tables: SeatedRoom[], question: number): Promise<void> {
    for (const t of tables) {
      expect(await t.players[0].send('room.answer', { question, choice: 0 }, `${t.code}-down-${question}`)).toMatchObject({
        status: 503,
        error: { code: 'database_unavailable' },
      });
      expect((await t.host.send('ping')).status).toBe(200);
    }
    for (const i of cluster.instances) {
      expect((await fetch(`${i.url}/health/live`)).status).toBe(200);
      expect(await ready(i.url)).toBe(503);
    }
  }

  async function back(): Promise<void> {
    link.restore();
    for (const i of cluster.instances) await waitFor(async () => (await ready(i.url)) === 200, `${i.instance} to be ready again`, 30_000);
  }

  it('keeps every socket through a cut and a silence, and finishes every game with every acknowledged answer', async () => {
    // One room on each instance.
    const api = new HttpApi(cluster.proxy);
    const byOwner = new Map<string, { code: string; roomId: string; hostToken: string }>();
    for (let n = 0; n < 40 && byOwner.size < 2; n++) {
      const room = await api.createRoom({ hostName: 'Host', questionCount: 2, secondsPerQuestion: 60, revealSeconds: 0 });
      expect((await api.request('GET', `/api/rooms/${room.code}`)).status).toBe(200);
      const at = await owner(room.code);
      if (!byOwner.has(at)) byOwner.set(at, room);
    }
    expect([...byOwner.keys()].sort()).toEqual(['instance-1', 'instance-2']);
    const tables = await Promise.all([...byOwner.values()].map(startedRoom));
    const closes: { code: number }[] = [];
    for (const t of tables) for (const c of [t.host, ...t.players]) void c.closed.then((closed) => closes.push(closed));

    await outageLongerThanLease(() => link.cutAll());
    await whileDown(tables, 0);
    await back();
    for (const t of tables) {
      for (const [i, p] of t.players.entries())
        expect((await p.send('room.answer', { question: 0, choice: i }, `${t.code}-q0-${i}`)).status).toBe(200);
      await t.host.nextEvent('question.open', (e) => e.data.index === 1);
    }

    await outageLongerThanLease(() => link.blackHole());
    await whileDown(tables, 1);
    await back();
    for (const t of tables) {
      for (const [i, p] of t.players.entries())
        expect((await p.send('room.answer', { question: 1, choice: i }, `${t.code}-q1-${i}`)).status).toBe(200);
      await t.host.nextEvent('game.finished');
    }

    // Each room stayed where it was, and its finished game's record has exactly what was acknowledged.
    for (const [instance, room] of byOwner) expect(await owner(room.code)).toBe(instance);
    for (const t of tables) {
      const [record] = await finishedGames({ databaseUrl }, t.roomId);
      const recorded = record.questions.flatMap((q: any) => q.answers.map((a: any) => [q.index, a.playerId, a.choice]));
      expect(recorded.sort()).toEqual([0, 1].flatMap((q) => [0, 1, 2].map((i) => [q, t.playerIds[i], i])).sort());
    }
    expect(closes).toEqual([]);
    for (const t of tables) for (const c of [t.host, ...t.players]) c.close();
  });
});
