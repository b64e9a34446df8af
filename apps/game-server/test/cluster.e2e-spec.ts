import { ClusterScript, SeatClient, HttpApi } from '@app/bot-kit';
import { startTestCluster } from '../../../test/support/test-cluster';
import { seatIn, waitFor } from './support';

/**
 * Issue 14 items 2 and 4, for real: `npm run cluster` (scripts/cluster.mjs) with three
 * instances behind HAProxy running deploy/haproxy.cfg.template. Everything a room's clients
 * send through the proxy, pages, API calls and sockets, lands on one instance, chosen by the
 * code; rooms spread over the instances; and when an instance dies its codes hash elsewhere.
 */
jest.setTimeout(90_000);

const ROOM = { hostName: 'Host', questionCount: 2, secondsPerQuestion: 10, revealSeconds: 0 };

describe('a cluster of three instances behind the proxy', () => {
  let cluster: ClusterScript;
  let proxy: HttpApi;

  beforeAll(async () => {
    cluster = await startTestCluster(3);
    proxy = new HttpApi(cluster.proxy);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** Which instances have the room live, asking each directly (not through the proxy). */
  async function holders(code: string): Promise<string[]> {
    // A killed instance answers nothing and holds nothing.
    return [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(code)).map(([name]) => name);
  }

  async function liveRoom(instance: string, code: string): Promise<Record<string, any>> {
    const { status, body } = await new HttpApi(cluster.member(instance).operatorUrl).request(
      'GET',
      `/admin/api/rooms/${code}`,
      undefined,
      cluster.admin,
    );
    expect(status).toBe(200);
    return body;
  }

  it('prints each instance with its pid and url, each answering /health with its own name', async () => {
    expect(cluster.instances.map((i) => i.instance)).toEqual(['instance-1', 'instance-2', 'instance-3']);
    for (const i of cluster.instances) {
      const health = await new HttpApi(i.url).request('GET', '/health');
      expect(health.body).toMatchObject({ status: 'ok', instance: i.instance, pid: i.pid });
    }
    // The proxy answers /health from whichever instance it picks: one of the three.
    const { body } = await proxy.request('GET', '/health');
    expect(cluster.instances.map((i) => i.instance)).toContain(body.instance);
  });

  it('serves /metrics and /admin on each instance’s operator port only, never through the proxy', async () => {
    for (const i of cluster.instances) {
      expect(i.operatorUrl).not.toBe(i.url);
      expect((await new HttpApi(i.operatorUrl).request('GET', '/admin/api/overview', undefined, cluster.admin)).status).toBe(200);
      expect((await fetch(`${i.operatorUrl}/metrics`)).status).toBe(200);
      for (const base of [i.url, cluster.proxy]) {
        expect({ base, status: (await fetch(`${base}/admin/api/overview`, { headers: cluster.admin })).status }).toEqual({
          base,
          status: 404,
        });
        expect({ base, status: (await fetch(`${base}/metrics`)).status }).toEqual({ base, status: 404 });
      }
    }
  });

  it('serves all of one room’s HTTP and WebSocket traffic from one instance', async () => {
    const room = await proxy.createRoom(ROOM);
    const seats = [await proxy.join(room.code, 'Ann'), await proxy.join(room.code.toLowerCase(), 'Bob')];
    const [owner] = await holders(room.code);
    expect(await holders(room.code)).toEqual([owner]);
    // Every path that names the code, in either case, reaches the same instance.
    // The proxy names the instance that answered each request: always the owner.
    const servedBy = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(cluster.proxy + path, init);
      expect(res.status).toBeLessThan(300);
      await res.arrayBuffer();
      return res.headers.get('x-served-by');
    };
    const paths = [`/api/rooms/${room.code}`, `/api/rooms/${room.code.toLowerCase()}`, `/api/rooms/${room.code}?room=${room.code}`];
    for (const path of paths) expect(await servedBy(path)).toBe(owner);
    // The pages are static files, the same on every instance: any may serve them.
    for (const path of [`/play/${room.code}`, `/host/${room.code.toLowerCase()}`])
      expect(cluster.instances.map((i) => i.instance)).toContain(await servedBy(path));
    expect(await servedBy(`/api/rooms/${room.code}/spectators`, { method: 'POST' })).toBe(owner);
    // The console's room detail is not behind the proxy: the owner's operator port has it.
    expect((await fetch(`${cluster.proxy}/admin/api/rooms/${room.code}`, { headers: cluster.admin })).status).toBe(404);
    expect((await liveRoom(owner, room.code)).code).toBe(room.code);
    expect(await holders(room.code)).toEqual([owner]);

    const clients = [await SeatClient.connect(cluster.proxy, room.hostToken, { room: room.code })];
    for (const s of seats) clients.push(await SeatClient.connect(cluster.proxy, s.playerToken, { room: room.code }));
    for (const c of clients) await c.nextEvent('room.state');
    await waitFor(async () => (await liveRoom(owner, room.code)).playersConnected === 2, `both players connected on ${owner}`);
    expect(await holders(room.code)).toEqual([owner]);
    // The registry, read on another instance's operator port, counts the room on its owner.
    const other = cluster.instances.find((i) => i.instance !== owner)!;
    await waitFor(async () => {
      const { body } = await new HttpApi(other.operatorUrl).request('GET', '/admin/api/instances', undefined, cluster.admin);
      return (body.instances as any[]).find((i) => i.name === owner)?.rooms >= 1;
    }, `the registry to count a room on ${owner}`);
    for (const c of clients) c.close();
  });

  it('refuses, through the proxy, a socket whose room= is not its token’s', async () => {
    const a = await proxy.createRoom(ROOM);
    const b = await proxy.createRoom(ROOM);
    await expect(SeatClient.connect(cluster.proxy, a.hostToken, { room: b.code })).rejects.toMatchObject({ status: 401 });
  });

  it('plays a whole game through the proxy', async () => {
    const room = await proxy.createRoom(ROOM);
    const { host, players } = await seatIn(cluster.proxy, room, ['Ann', 'Bob', 'Cy'], { throughProxy: true });
    expect((await host.send('room.start')).status).toBe(200);
    for (let q = 0; q < ROOM.questionCount; q++) {
      expect((await players[0].nextEvent('question.open')).data.index).toBe(q);
      const replies = await Promise.all(players.map((p, i) => p.send('room.answer', { question: q, choice: i % 2 })));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await host.nextEvent('question.closed')).data.scores).toHaveLength(3);
    }
    expect((await host.nextEvent('game.finished')).data.standings).toHaveLength(3);
    expect(await holders(room.code)).toHaveLength(1);
    for (const c of [host, ...players]) c.close();
  });

  it('spreads rooms over the instances, each room on exactly one', async () => {
    const codes: string[] = [];
    for (let n = 0; n < 30; n++) {
      const room = await proxy.createRoom(ROOM);
      expect((await proxy.request('GET', `/api/rooms/${room.code}`)).status).toBe(200); // activates it on its instance
      codes.push(room.code);
    }
    const owners = new Map<string, string[]>();
    for (const code of codes) owners.set(code, await holders(code));
    for (const code of codes) expect(owners.get(code)).toHaveLength(1);
    const used = new Set([...owners.values()].map(([o]) => o));
    expect(used.size).toBeGreaterThan(1);
  });

  it('sends a dead instance’s rooms to the others once its health checks fail', async () => {
    const codes: string[] = [];
    while (codes.length < 20) {
      const room = await proxy.createRoom(ROOM);
      await proxy.request('GET', `/api/rooms/${room.code}`);
      codes.push(room.code);
    }
    const owners = new Map<string, string>();
    for (const code of codes) owners.set(code, (await holders(code))[0]);
    const victim = owners.get(codes[0])!;
    const moved = codes.filter((c) => owners.get(c) === victim);
    const stayed = codes.filter((c) => owners.get(c) !== victim);
    process.kill(cluster.member(victim).pid, 'SIGKILL');
    // Consistent hashing: the victim's codes are answered by the others, the rest stay put.
    // Until the checks fail, the proxy still tries the victim: 503, or a connection cut.
    const answered = (code: string) =>
      proxy.request('GET', `/api/rooms/${code}`).then(
        (r) => r.status === 200,
        () => false,
      );
    await waitFor(() => answered(moved[0]), `the proxy to drop ${victim}`, 20_000);
    const alive = cluster.instances.filter((i) => i.instance !== victim);
    const holdersAmong = async (code: string) =>
      (
        await Promise.all(
          alive.map(async (i) =>
            (
              (await new HttpApi(i.operatorUrl).request('GET', '/admin/api/rooms', undefined, cluster.admin)).body.rooms as {
                code: string;
              }[]
            ).some((r) => r.code === code)
              ? [i.instance]
              : [],
          ),
        )
      ).flat();
    for (const code of moved) {
      // Each moved room is taken once the dead instance's lease on it has run out (LEASE_SECONDS).
      await waitFor(() => answered(code), `room ${code} to be served again`, 20_000);
      expect(await holdersAmong(code)).toHaveLength(1);
    }
    for (const code of stayed) {
      expect((await proxy.request('GET', `/api/rooms/${code}`)).status).toBe(200);
      expect(await holdersAmong(code)).toEqual([owners.get(code)]);
    }
  });

  it('goes on with a game whose owner was killed: its clients reconnect through the proxy, and every acknowledged answer is kept', async () => {
    const room = await proxy.createRoom({ ...ROOM, questionCount: 3, secondsPerQuestion: 30 });
    const { host, players, playerTokens } = await seatIn(cluster.proxy, room, ['Ann', 'Bob', 'Cy'], { throughProxy: true });
    const connect = (token: string) => SeatClient.connect(cluster.proxy, token, { room: room.code });
    expect((await host.send('room.start')).status).toBe(200);
    await players[0].nextEvent('question.open');
    const ids = players.map((_, i) => `q0-${i}`);
    const acked = await Promise.all(players.map((p, i) => p.send('room.answer', { question: 0, choice: i % 2 }, ids[i])));
    expect(acked.map((r) => r.status)).toEqual([200, 200, 200]);
    await players[0].nextEvent('question.open', (e) => e.data.index === 1);
    const [owner] = await holders(room.code);

    const killedAt = performance.now();
    process.kill(cluster.member(owner).pid, 'SIGKILL');
    // Each client reconnects with the token it has, through the proxy, until the room is served again.
    const reconnect = async (token: string) => {
      for (;;) {
        try {
          const client = await connect(token);
          const first = await Promise.race([client.nextEvent('room.state'), client.closed.then(() => undefined)]);
          if (first) return { client, state: first };
        } catch {
          // the proxy still tries the dead instance, or the room is not free yet
        }
        if (performance.now() - killedAt > 30_000) throw new Error('the room was not served again within 30 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const back = await Promise.all(playerTokens.map(reconnect));
    const state = back[0].state.data as { phase: string; question?: { index: number } };
    expect(state.phase).toBe('question');
    const index = state.question!.index;
    expect(index).toBe(1);
    const nextIds = back.map((_, i) => `q1-${i}`);
    const next = await Promise.all(back.map(({ client }, i) => client.send('room.answer', { question: index, choice: i % 2 }, nextIds[i])));
    const failoverMs = performance.now() - killedAt;
    expect(next.map((r) => r.status)).toEqual([200, 200, 200]);
    // Every answer acknowledged before the kill is there: its id gets its original reply again.
    for (const [i, { client }] of back.entries())
      expect((await client.send('room.answer', { question: 0, choice: i % 2 }, ids[i])).status).toBe(200);
    const [newOwner] = await holders(room.code);
    expect(newOwner).not.toBe(owner);
    // The figure the issue asks for: kill to the moved room's first successful commands.
    console.log(`failover: kill -9 of ${owner} to the first answers committed on ${newOwner}: ${Math.round(failoverMs)} ms`);
    host.close();

    // The killed instance comes back: the proxy routes the room's code to it again, while the
    // room's lease is the survivor's. A client reaching it asks for the room, the survivor hands it
    // over at its next beat, and the clients, reconnecting through the proxy, reach the room there.
    await cluster.restart(owner);
    const homeAt = performance.now();
    const served = async (token: string) => {
      for (;;) {
        const { client } = await reconnect(token);
        if ((await holders(room.code))[0] === owner) return client;
        await Promise.race([client.closed, new Promise((r) => setTimeout(r, 500))]);
        client.close();
        if (performance.now() - homeAt > 60_000) throw new Error(`the room did not go back to ${owner} within 60 s`);
      }
    };
    for (const { client } of back) client.close();
    const home = await Promise.all(playerTokens.map(served));
    expect(await holders(room.code)).toEqual([owner]);
    // Nothing acknowledged on either instance was lost on the way back: each answer's id gets its original reply.
    for (const [i, client] of home.entries()) {
      expect((await client.send('room.answer', { question: 0, choice: i % 2 }, ids[i])).status).toBe(200);
      expect((await client.send('room.answer', { question: index, choice: i % 2 }, nextIds[i])).status).toBe(200);
    }
    for (const c of home) c.close();
  });
});
