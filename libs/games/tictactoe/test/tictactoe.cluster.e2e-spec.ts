import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { ClusterScript, HttpApi } from '@app/bot-kit';
import { requireBuiltServer } from '../../../../test/support/server-process';
import { openBoard } from './tictactoe.support';

const REPO = resolve(__dirname, '../../../..');
const BARE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
jest.setTimeout(90_000);

// Behind the proxy, a board's HTTP and socket traffic lands on the one instance that has it:
// routing is by the room's code alone, whatever its game.
describe('tic-tac-toe through the proxy, on a cluster of two', () => {
  let cluster: ClusterScript;
  beforeAll(async () => {
    requireBuiltServer();
    cluster = await ClusterScript.start(REPO, 2, { NODE_ENV: 'test', INSTANCE_HEARTBEAT_SECONDS: '1', LOG_LEVEL: 'info' }, () => undefined, BARE_ENV);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('plays a board through the proxy, all of it on one instance', async () => {
    const b = await openBoard(cluster.proxy, 30, { room: true });
    for (const [who, cell] of [[b.x, 0], [b.o, 3], [b.x, 1], [b.o, 4], [b.x, 2]] as const) expect((await who.send('ttt.move', { cell })).status).toBe(200);
    expect((await b.o.nextEvent('ttt.finished')).data).toEqual({ winner: 'X' });
    const holders = [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(b.code)).map(([name]) => name);
    expect(holders).toHaveLength(1);
    expect(await new HttpApi(cluster.proxy).request('GET', `/api/rooms/${b.code}?room=${b.code}`)).toMatchObject({ status: 200, body: { game: 'tictactoe', winner: 'X' } });
    b.x.close();
    b.o.close();
  });
});
