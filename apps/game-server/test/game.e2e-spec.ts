import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';

describe('a whole game over real sockets', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  it('plays three questions for three players, then a rematch vote and leaves', async () => {
    const room = await api.createRoom({ hostName: 'Quizmaster', questionCount: 3, secondsPerQuestion: 5, revealSeconds: 0 });
    const seats = [];
    for (const name of ['Ann', 'Bob', 'Cy']) seats.push(await api.join(room.code, name));
    const host = await SeatClient.connect(server.url, room.hostToken);
    const players = await Promise.all(seats.map((s) => SeatClient.connect(server.url, s.playerToken)));
    const state = await host.nextEvent('room.state');
    expect(state.seq).toBe(1);
    expect(state.data.players.map((p: any) => p.name)).toEqual(['Ann', 'Bob', 'Cy']);

    expect((await host.send('room.start')).status).toBe(200);
    for (let q = 0; q < 3; q++) {
      const open = await players[0].nextEvent('question.open');
      expect(open.data.index).toBe(q);
      expect(open.data).not.toHaveProperty('correct');
      const replies = await Promise.all(players.map((p, i) => p.send('room.answer', { question: q, choice: i % 2 })));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(replies[0].data).toEqual({ accepted: true });
      const closed = await host.nextEvent('question.closed');
      expect(closed.data.index).toBe(q);
      expect(closed.data.scores).toHaveLength(3);
    }
    const finished = await host.nextEvent('game.finished');
    expect(finished.data.standings).toHaveLength(3);
    await host.nextEvent('rematch.open');
    const votes = await Promise.all(players.map((p, i) => p.send('room.rematch', { vote: i < 2 })));
    expect(votes.map((v) => v.status)).toEqual([200, 200, 200]);
    const decided = await host.nextEvent('rematch.decided');
    expect(decided.data).toEqual({ accepted: true, playerIds: [seats[0].playerId, seats[1].playerId] });
    expect((await players[2].waitClosed()).code).toBe(4003);
    const lobby = await host.nextEvent('room.state');
    expect(lobby.data.phase).toBe('lobby');
    expect((await players[0].send('room.leave')).status).toBe(200);
    expect((await players[0].waitClosed()).code).toBe(4003);
    for (const c of [host, ...players]) c.close();
  });
});
