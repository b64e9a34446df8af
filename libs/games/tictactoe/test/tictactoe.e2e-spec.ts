import { HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RunningServer } from '../../../../apps/game-server/src/server';
import { finishedGames, journaled } from '../../../../apps/game-server/test/support';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../../test/support/test-server';
import { openBoard } from './tictactoe.support';

// The third game is served by the same server with nothing but its folder and its registration
// line. These tests check that it opens over HTTP, plays over WebSocket, is journaled, and shows in
// the console and in /metrics.
describe('tic-tac-toe on the server', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

  it('opens over HTTP, plays to a win over WebSocket, and reports the finished game', async () => {
    const before = await MetricsSnapshot.fetch(server.url);
    const b = await openBoard(server.url);
    expect(await new HttpApi(server.url).request('GET', `/api/rooms/${b.code}`)).toMatchObject({
      status: 200,
      body: { game: 'tictactoe', phase: 'playing', turn: 'X' },
    });
    for (const [who, cell] of [
      [b.x, 0],
      [b.o, 3],
      [b.x, 1],
      [b.o, 4],
    ] as const)
      expect((await who.send('ttt.move', { cell })).status).toBe(200);
    // A move out of turn, a move to a taken cell and a move of a bad shape are refused, and none is journaled.
    expect(await b.o.send('ttt.move', { cell: 5 })).toMatchObject({ status: 409, error: { code: 'not_your_turn' } });
    expect(await b.x.send('ttt.move', { cell: 4 })).toMatchObject({ status: 409, error: { code: 'cell_taken' } });
    expect(await b.x.send('ttt.move', { cell: 9 })).toMatchObject({ status: 400, error: { code: 'bad_data' } });
    expect((await b.x.send('ttt.move', { cell: 2 })).status).toBe(200);
    expect((await b.o.nextEvent('ttt.finished')).data).toEqual({ winner: 'X' });
    const [summary] = await finishedGames(server, b.roomId);
    expect(summary).toMatchObject({ winner: 'X', moves: [0, 3, 1, 4, 2] });
    // The finish snapshotted the board and cut its journal, so the moves are now only in the finished game's record.
    expect(await journaled(server, b.roomId, 'ttt.move')).toEqual([]);
    // The metrics count the game's commands under the game's own command type.
    const after = await MetricsSnapshot.fetch(server.url);
    const moves = (s: MetricsSnapshot, status_class: string) =>
      s.value('game_command_duration_seconds_count', { command: 'ttt.move', status_class });
    expect([moves(after, '2xx') - moves(before, '2xx'), moves(after, '4xx') - moves(before, '4xx')]).toEqual([5, 3]);
    b.x.close();
    b.o.close();
  });

  it('shows in the operator console as a row of its own game, with its detail', async () => {
    const b = await openBoard(server.url);
    const api = new HttpApi(server.url);
    const row = (await api.request('GET', '/admin/api/rooms', undefined, admin)).body.rooms.find((r: any) => r.code === b.code);
    expect(row).toMatchObject({ code: b.code, game: 'tictactoe', phase: 'playing', players: 2, playersConnected: 2 });
    const detail = await api.request('GET', `/admin/api/rooms/${b.code}`, undefined, admin);
    expect(detail).toMatchObject({ status: 200, body: { board: ['', '', '', '', '', '', '', '', ''], moves: 0 } });
    // Either seat's token may close the room.
    expect((await api.request('DELETE', `/api/rooms/${b.code}`, undefined, { authorization: `Bearer ${b.tokens.o}` })).status).toBe(204);
    expect((await b.x.waitClosed()).code).toBe(4004);
  });
});
