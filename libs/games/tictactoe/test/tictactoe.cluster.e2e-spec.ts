import { ClusterScript, SeatClient, HttpApi } from '@app/bot-kit';
import { startTestCluster } from '../../../../test/support/test-cluster';
import { openBoard } from './tictactoe.support';

jest.setTimeout(90_000);

// Behind the proxy, a board's HTTP and socket traffic lands on the one instance that holds it,
// because the proxy routes by the room's code alone, whatever the room's game.
describe('tic-tac-toe through the proxy, on a cluster of two', () => {
  let cluster: ClusterScript;
  beforeAll(async () => {
    cluster = await startTestCluster(2);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('plays a board through the proxy, all of it on one instance', async () => {
    const b = await openBoard(cluster.proxy, 30, { room: true });
    for (const [who, cell] of [
      [b.x, 0],
      [b.o, 3],
      [b.x, 1],
      [b.o, 4],
      [b.x, 2],
    ] as const)
      expect((await who.send('ttt.move', { cell })).status).toBe(200);
    expect((await b.o.nextEvent('ttt.finished')).data).toEqual({ winner: 'X' });
    const holders = [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(b.code)).map(([name]) => name);
    expect(holders).toHaveLength(1);
    expect(await new HttpApi(cluster.proxy).request('GET', `/api/rooms/${b.code}?room=${b.code}`)).toMatchObject({
      status: 200,
      body: { game: 'tictactoe', winner: 'X' },
    });
    b.x.close();
    b.o.close();
  });

  it('moves a board whose instance was killed to the other one, every acknowledged move kept', async () => {
    const b = await openBoard(cluster.proxy, 60, { room: true });
    expect((await b.x.send('ttt.move', { cell: 4 }, 'x-1')).status).toBe(200);
    expect((await b.o.send('ttt.move', { cell: 0 }, 'o-1')).status).toBe(200);
    const holders = async () => [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(b.code)).map(([name]) => name);
    const [owner] = await holders();
    const killedAt = performance.now();
    process.kill(cluster.member(owner).pid, 'SIGKILL');
    // Each seat keeps reconnecting through the proxy with the token it has, until the board is served again.
    const reconnect = async (token: string) => {
      for (;;) {
        try {
          const client = await SeatClient.connect(cluster.proxy, token, { room: b.code });
          const first = await Promise.race([client.nextEvent('ttt.state'), client.closed.then(() => undefined)]);
          if (first) return { client, state: first.data };
        } catch {
          // Either the proxy still tries the dead instance, or the board's lease has not lapsed yet.
        }
        if (performance.now() - killedAt > 30_000) throw new Error('the board was not served again within 30 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const [x, o] = await Promise.all([reconnect(b.tokens.x), reconnect(b.tokens.o)]);
    expect(x.state).toMatchObject({ phase: 'playing', turn: 'X', board: ['O', '', '', '', 'X', '', '', '', ''] });
    expect(await holders()).not.toContain(owner);
    expect((await o.client.send('ttt.move', { cell: 0 }, 'o-1')).status).toBe(200);
    expect((await x.client.send('ttt.move', { cell: 8 }, 'x-2')).status).toBe(200);
    x.client.close();
    o.client.close();
  });
});
