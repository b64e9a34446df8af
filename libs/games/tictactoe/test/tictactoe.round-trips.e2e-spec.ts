import { RunningServer } from '../../../../apps/game-server/src/server';
import { statementsOf } from '../../../../apps/game-server/test/support';
import { withTestServer } from '../../../../test/support/test-server';
import { openBoard } from './tictactoe.support';

// These tests check DESIGN.md's round-trip budget for the third game. They count statements at the
// pg client, as apps/game-server/test/round-trips.e2e-spec.ts counts trivia's. Each list is exact,
// so a hidden extra query fails it.
const APPEND = 'JournalRepository.append';
// The move clock is far longer than any test's moves, so no deadline ends a game during a test.
const MOVE_SECONDS = 600;

describe('tic-tac-toe round-trip budget', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));

  const counted = (action: () => Promise<unknown>) => statementsOf(server, action);

  it('each accepted move costs one statement, a refused one none, and the winning move one', async () => {
    const b = await openBoard(server.url, MOVE_SECONDS);
    for (const [who, cell] of [
      [b.x, 0],
      [b.o, 3],
      [b.x, 1],
      [b.o, 4],
    ] as const) {
      expect(await counted(async () => expect((await who.send('ttt.move', { cell })).status).toBe(200))).toEqual([APPEND]);
    }
    expect(await counted(async () => expect((await b.o.send('ttt.move', { cell: 5 })).status).toBe(409))).toEqual([]);
    expect(await counted(async () => expect((await b.x.send('ttt.move', { cell: 4 })).status).toBe(409))).toEqual([]);
    const win = await counted(async () => {
      expect((await b.x.send('ttt.move', { cell: 2 })).status).toBe(200);
      await b.o.nextEvent('ttt.finished');
    });
    expect(win).toEqual([APPEND]);
    b.x.close();
    b.o.close();
  });

  it('a ping costs nothing', async () => {
    const b = await openBoard(server.url, MOVE_SECONDS);
    expect(await counted(async () => expect((await b.x.send('ping')).status).toBe(200))).toEqual([]);
    b.x.close();
    b.o.close();
  });
});
