import { SeatClient } from '@app/bot-kit';
import { finishedGames, journaled } from '../../../../apps/game-server/test/support';
import { ServerProcess } from '../../../../test/support/server-process';
import { openBoard } from './tictactoe.support';

// These tests kill -9 the real server mid-game. Every acknowledged move must be on the board when
// the server comes back.
describe('tic-tac-toe after kill -9 of a real server process', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await ServerProcess.create();
    await server.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it(
    'comes back with every acknowledged move and the clock it had, a resent move gets its original reply, and the game finishes',
    () =>
      server.explainFailure(async () => {
        const b = await openBoard(server.url, 60);
        expect((await b.x.send('ttt.move', { cell: 4 }, 'x-1')).status).toBe(200);
        const moved = await b.x.send('ttt.move', { cell: 0 }, 'x-early');
        expect(moved.error?.code).toBe('not_your_turn');
        const acknowledged = await b.o.send('ttt.move', { cell: 0 }, 'o-1');
        expect(acknowledged.status).toBe(200);
        const clock = (await b.x.nextEvent('ttt.moved', (e) => e.data.mark === 'O')).data.moveBy;

        await server.kill('SIGKILL');
        await Promise.all([b.x.waitClosed(), b.o.waitClosed()]);
        await server.restart();

        const x = await SeatClient.connect(server.url, b.tokens.x, { timeoutMs: 10_000 });
        const o = await SeatClient.connect(server.url, b.tokens.o, { timeoutMs: 10_000 });
        const state = (await x.nextEvent('ttt.state')).data;
        expect(state).toMatchObject({ phase: 'playing', turn: 'X', moveBy: clock, board: ['O', '', '', '', 'X', '', '', '', ''] });
        await o.nextEvent('ttt.state');
        expect(await o.send('ttt.move', { cell: 0 }, 'o-1')).toEqual(acknowledged);
        for (const [who, cell, id] of [
          [x, 1, 'x-2'],
          [o, 3, 'o-2'],
        ] as const)
          expect((await who.send('ttt.move', { cell }, id)).status).toBe(200);
        expect((await journaled(server, b.roomId, 'ttt.move')).map((m) => m.commandId)).toEqual(['x-1', 'o-1', 'x-2', 'o-2']);
        expect((await x.send('ttt.move', { cell: 7 }, 'x-3')).status).toBe(200);
        expect((await o.nextEvent('ttt.finished')).data).toEqual({ winner: 'X' });
        // The winning move finished the game. The game's record holds every move, and its snapshot cut the journal.
        expect(await finishedGames(server, b.roomId)).toEqual([expect.objectContaining({ winner: 'X', moves: [4, 0, 1, 3, 7] })]);
        expect(await journaled(server, b.roomId, 'ttt.move')).toEqual([]);
        x.close();
        o.close();
      }),
    60_000,
  );
});
