import { parse } from 'csv-parse/sync';
import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom } from './support';

// PROTOCOL.md section 12: a finished game's results, by the unguessable id `game.finished` carries,
// as JSON and as CSV, for 30 days.
describe('results of a finished game', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));

  async function playedGame() {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 2, revealSeconds: 0, secondsPerQuestion: 60 });
    await room.host.send('room.start');
    for (let q = 0; q < 2; q++) {
      const open = await room.host.nextEvent('question.open', (e) => e.data.index === q);
      // Ann picks the first choice, Bob the second; Cy leaves before question 1 and never answers
      // it: it closes once the two still connected have answered.
      if (q === 1) room.players[2].close();
      const answering = q === 0 ? room.players : room.players.slice(0, 2);
      await Promise.all(answering.map((p, i) => p.send('room.answer', { question: q, choice: i % open.data.choices.length })));
      await room.host.nextEvent('question.closed', (e) => e.data.index === q);
    }
    return { room, finished: await room.host.nextEvent('game.finished') };
  }

  it('are linked from game.finished and read back as the game was played', async () => {
    const { room, finished } = await playedGame();
    const id: string = finished.data.resultsId;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const api = new HttpApi(server.url);
    const { status, body } = await api.request('GET', `/api/results/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: room.code, number: 1, finishedAt: expect.any(Number), standings: finished.data.standings });
    // The link answers for the results window (30 days by default) from the record's commit, just
    // after the game's end, and says until when.
    expect(body.readableUntil - 30 * 86_400_000 - body.finishedAt).toBeGreaterThanOrEqual(0);
    expect(body.readableUntil - 30 * 86_400_000 - body.finishedAt).toBeLessThan(60_000);
    expect(Number.isInteger(body.readableUntil)).toBe(true);
    expect(body.questions).toHaveLength(2);
    for (const q of body.questions) {
      const right = q.answers.filter((a: any) => a.right).length;
      expect(q.rightRate).toBeCloseTo(right / 3, 4);
      for (const a of q.answers) expect(a.right).toBe(a.choice === q.correct);
    }
    expect(body.questions[1].answers.map((a: any) => a.name).sort()).toEqual(['Ann', 'Bob']);
    // A host who comes back to the finished room finds the link in its first frame.
    const again = await SeatClient.connect(server.url, room.hostToken);
    expect((await again.nextEvent('room.state')).data).toMatchObject({ phase: 'finished', resultsId: id });
    again.close();
    closeAll(room);
  });

  it('download as CSV, one row per player per question, a player who did not answer included', async () => {
    const { room, finished } = await playedGame();
    const res = await fetch(`${server.url}/api/results/${finished.data.resultsId}.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="results-/);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toBe('game,question,text,player,choice,right,points,ms');
    const rows: string[][] = parse(text, { from_line: 2 });
    expect(rows).toHaveLength(3 * 2);
    const json = (await new HttpApi(server.url).request('GET', `/api/results/${finished.data.resultsId}`)).body;
    for (const [game, question, qText, player, choice, right, points] of rows) {
      const q = json.questions[Number(question) - 1];
      expect([game, qText]).toEqual(['1', q.text]);
      const answer = q.answers.find((a: any) => a.name === player);
      expect([choice === '' ? undefined : choice, right, points]).toEqual(
        answer ? [expect.any(String), answer.right ? 'yes' : 'no', String(answer.points)] : [undefined, 'no', '0'],
      );
    }
    // Cy answered the first question and not the second.
    expect(rows.filter((r) => r[3] === 'Cy').map((r) => r[4] !== '')).toEqual([true, false]);
    closeAll(room);
  });

  it('are 404 results_not_found for an unknown id, something that is not one, and after 30 days', async () => {
    const api = new HttpApi(server.url);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', '..%2F..%2Fetc']) {
      expect(await api.request('GET', `/api/results/${id}`)).toMatchObject({ status: 404, body: { code: 'results_not_found' } });
    }
    const { room, finished } = await playedGame();
    await queryDb(server, `UPDATE finished_games SET finished_at = now() - interval '31 days' WHERE id = $1`, [finished.data.resultsId]);
    expect(await api.request('GET', `/api/results/${finished.data.resultsId}`)).toMatchObject({
      status: 404,
      body: { code: 'results_not_found' },
    });
    expect((await fetch(`${server.url}/api/results/${finished.data.resultsId}.csv`)).status).toBe(404);
    closeAll(room);
  });
});
