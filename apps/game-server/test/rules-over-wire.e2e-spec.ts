import WebSocket from 'ws';
import { EventFrame, FrameDecoder } from '@app/protocol';
import { WIRE_CODES } from '@app/wire-codes';
import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, finishedGames, seatRoom } from './support';

describe('game rules over the wire', () => {
  let server: RunningServer;

  withTestServer((s) => (server = s));

  it('closes a question at its deadline when not everyone answers, scoring the silent player 0', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 1, secondsPerQuestion: 0.4 });
    await room.host.send('room.start');
    const open = await room.players[0].nextEvent('question.open');
    await room.players[0].send('room.answer', { question: 0, choice: 0 });
    const closed = await room.host.nextEvent('question.closed');
    expect(Date.now()).toBeGreaterThanOrEqual(open.data.closesAt - 50);
    const bob = closed.data.scores.find((s: any) => s.playerId === room.playerIds[1]);
    expect(bob).toEqual({ playerId: room.playerIds[1], points: 0, total: 0 });
    expect(closed.data.counts.reduce((a: number, b: number) => a + b, 0)).toBe(1);
    closeAll(room);
  });

  it('scores a right answer by the elapsed time the server measured, a wrong one 0', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 1, secondsPerQuestion: 10 });
    await room.host.send('room.start');
    const open = await room.players[0].nextEvent('question.open');
    const choices = open.data.choices.length;
    // Ann and Bob pick different choices; at most one of them is right.
    await Promise.all(room.players.map((p, i) => p.send('room.answer', { question: 0, choice: i % choices })));
    const closed = await room.host.nextEvent('question.closed');
    // The finished game's report holds every answer as scored.
    await room.host.nextEvent('game.finished');
    const [finished] = await finishedGames(server, room.roomId);
    const rows = finished.questions[0].answers.map((a: any) => ({
      player_id: a.playerId,
      choice: a.choice,
      elapsed_ms: a.elapsedMs,
      correct: a.correct,
      points: a.points,
    }));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const expected = row.choice === closed.data.correct ? Math.round(1000 * (1 - row.elapsed_ms / 10_000 / 2)) : 0;
      expect(row.points).toBe(expected);
      expect(row.correct).toBe(row.choice === closed.data.correct);
      expect(closed.data.scores.find((s: any) => s.playerId === row.player_id).points).toBe(expected);
    }
    closeAll(room);
  });

  it("never shows the right choice or another player's choice before the reveal, to anyone", async () => {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 2, secondsPerQuestion: 10 });
    const spectator = await SeatClient.connect(server.url, (await new HttpApi(server.url).spectate(room.code)).spectatorToken);
    expect((await room.host.send('room.start')).status).toBe(200);
    for (let q = 0; q < 2; q++) {
      await room.players[0].nextEvent('question.open', (e) => e.data.index === q);
      const marks = room.players.map((p) => p.frames.length);
      const watchers = [room.host, spectator].map((c) => c.frames.length);
      // The checks below rely on these answers being in the room: each must have been accepted.
      expect((await room.players[0].send('room.answer', { question: q, choice: 2 })).status).toBe(200);
      expect((await room.players[1].send('room.answer', { question: q, choice: 3 })).status).toBe(200);
      // A late joiner's socket sees the room mid-question: its own choice under `you` only.
      const again = await SeatClient.connect(server.url, room.playerTokens[0]);
      const state = await again.nextEvent('room.state');
      expect(state.data.you.answer).toEqual({ question: q, choice: 2 });
      expect(JSON.stringify(state.data.question)).not.toMatch(/"correct"|"choice"/);
      again.close();
      expect((await room.players[2].send('room.answer', { question: q, choice: 0 })).status).toBe(200);
      for (const c of [room.host, spectator, ...room.players]) await c.nextEvent('question.closed', (e) => e.data.index === q);
      // Every frame up to this question's close; each socket has seen the close by now.
      const before = (frames: string[]) => {
        const close = frames.findIndex((f) => f.includes('"question.closed"'));
        expect(close).toBeGreaterThanOrEqual(0);
        return frames.slice(0, close);
      };
      for (const [i, p] of room.players.entries()) {
        const seen = before(p.frames.slice(marks[i]));
        for (const f of seen) {
          expect(f).not.toMatch(/"correct"/);
          // No frame carries a choice, except the player's own reply (which has none either).
          expect(f).not.toMatch(/"choice"/);
        }
      }
      for (const [i, c] of [room.host, spectator].entries()) {
        for (const f of before(c.frames.slice(watchers[i]))) expect(f).not.toMatch(/"correct"|"choice"/);
      }
    }
    spectator.close();
    closeAll(room);
  });

  it('gives a socket the profile it asks for, JSON for one it does not know, and says which in the first room.state', async () => {
    const room = await new HttpApi(server.url).createRoom({ hostName: 'H' });
    for (const [asked, got] of [
      ['compact-v1', 'compact-v1'],
      ['compact-v2', 'compact-v2'],
      ['compact-v3', 'compact-v3'],
      ['compact-v9', 'json'],
      ['', 'json'],
    ] as const) {
      const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(room.hostToken)}&wire=${asked}`);
      const first = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(data.toString()));
        ws.once('error', reject);
      });
      const state = new FrameDecoder(got, WIRE_CODES).decode(first);
      expect([asked, state.type, (state as EventFrame<{ wire: string }>).data.wire]).toEqual([asked, 'room.state', got]);
      ws.close();
    }
  });

  it("numbers each socket's events from 1 without gaps", async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 2, secondsPerQuestion: 10 });
    await room.host.send('room.start');
    for (let q = 0; q < 2; q++) {
      await room.players[0].nextEvent('question.open', (e) => e.data.index === q);
      await Promise.all(room.players.map((p) => p.send('room.answer', { question: q, choice: 0 })));
    }
    await room.host.nextEvent('game.finished');
    for (const c of [room.host, ...room.players]) {
      expect(c.events.map((e) => e.seq)).toEqual(c.events.map((_, i) => i + 1));
    }
    closeAll(room);
  });

  it('declines a rematch as soon as it cannot reach minPlayers and keeps the room finished', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 1, secondsPerQuestion: 10 });
    await room.host.send('room.start');
    await room.players[0].nextEvent('question.open');
    await Promise.all(room.players.map((p) => p.send('room.answer', { question: 0, choice: 0 })));
    await room.host.nextEvent('rematch.open');
    await room.players[0].send('room.rematch', { vote: false });
    expect((await room.players[1].send('room.rematch', { vote: false })).status).toBe(200);
    expect((await room.host.nextEvent('rematch.decided')).data).toEqual({ accepted: false, playerIds: [] });
    expect(await room.players[2].send('room.rematch', { vote: true })).toMatchObject({ status: 409, error: { code: 'rematch_closed' } });
    const summary = await new HttpApi(server.url).request('GET', `/api/rooms/${room.code}`);
    expect(summary.body.phase).toBe('finished');
    closeAll(room);
  });
});
