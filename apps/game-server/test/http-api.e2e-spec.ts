import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, finishedGames, queryDb, seatRoom } from './support';

describe('HTTP API', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  describe('POST /api/rooms', () => {
    it('opens a room with a six-character code from the unambiguous alphabet and the defaults', async () => {
      const room = await api.createRoom({ hostName: 'Quinn' });
      expect(room.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
      const summary = await api.request('GET', `/api/rooms/${room.code.toLowerCase()}`);
      expect(summary.status).toBe(200);
      expect(summary.body).toMatchObject({
        code: room.code,
        phase: 'lobby',
        players: [],
        settings: { questionCount: 10, secondsPerQuestion: 20, revealSeconds: 4, maxPlayers: 20, minPlayers: 2 },
      });
    });

    it.each([
      [{}, 'hostName'],
      [{ hostName: '' }, 'hostName'],
      [{ hostName: 'x'.repeat(33) }, 'hostName'],
      [{ hostName: 'Bell\u0007' }, 'hostName'],
      [{ hostName: 'A', questionCount: 51 }, 'questionCount'],
      [{ hostName: 'A', questionCount: 2.5 }, 'questionCount'],
      [{ hostName: 'A', secondsPerQuestion: 0.1 }, 'secondsPerQuestion'],
      [{ hostName: 'A', revealSeconds: -1 }, 'revealSeconds'],
      [{ hostName: 'A', maxPlayers: 0 }, 'maxPlayers'],
      [{ hostName: 'A', deckId: 'not-a-uuid' }, 'deckId'],
    ])('refuses %j with 400 naming %s, and creates nothing', async (body, field) => {
      const before = await queryDb(server, 'SELECT count(*)::int AS n FROM rooms');
      const res = await api.request('POST', '/api/rooms', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'bad_data' });
      expect(res.body.message).toContain(field);
      expect(await queryDb(server, 'SELECT count(*)::int AS n FROM rooms')).toEqual(before);
    });

    it('answers malformed JSON with 400 in the error shape', async () => {
      const res = await api.request('POST', '/api/rooms', '{"hostName": ');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'bad_json' });
    });

    it("opens a room of any game with `game`, answering the opener's seat and token, and refuses a game it does not play", async () => {
      const table = await api.request('POST', '/api/rooms', { game: 'cards', name: 'Bo' });
      expect(table).toMatchObject({
        status: 201,
        body: {
          game: 'cards',
          code: expect.stringMatching(/^[A-Z0-9]{6}$/),
          role: 'player',
          seat: expect.any(String),
          token: expect.any(String),
        },
      });
      const human = await SeatClient.connect(server.url, table.body.token);
      expect((await human.nextEvent('table.snapshot')).data).toMatchObject({ you: { seat: 0 } });
      human.close();
      const trivia = await api.request('POST', '/api/rooms', { game: 'trivia', hostName: 'Hana' });
      expect(trivia).toMatchObject({ status: 201, body: { game: 'trivia', role: 'host', seat: 'host' } });
      const before = await queryDb(server, 'SELECT count(*)::int AS n FROM rooms');
      const unknown = await api.request('POST', '/api/rooms', { game: 'chess', name: 'Bo' });
      expect(unknown).toMatchObject({ status: 400, body: { code: 'bad_data' } });
      expect(unknown.body.message).toMatch(/^game must be one of trivia, cards/);
      expect(await queryDb(server, 'SELECT count(*)::int AS n FROM rooms')).toEqual(before);
    });

    it('answers an unknown deck with 404', async () => {
      const res = await api.request('POST', '/api/rooms', { hostName: 'A', deckId: '11111111-1111-4111-8111-111111111111' });
      expect(res).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
    });
  });

  describe('joining', () => {
    it('answers 404 for an unknown room and for something that cannot be a code', async () => {
      expect((await api.request('POST', '/api/rooms/ZZZZZZ/players', { name: 'A' })).body).toMatchObject({
        statusCode: 404,
        code: 'room_not_found',
      });
      expect((await api.request('POST', '/api/rooms/0O1IL!/players', { name: 'A' })).status).toBe(404);
    });

    it('refuses a bad name with 400', async () => {
      const room = await api.createRoom({ hostName: 'H' });
      const res = await api.request('POST', `/api/rooms/${room.code}/players`, { name: '   ' });
      expect(res).toMatchObject({ status: 400, body: { code: 'bad_data' } });
      expect(res.body.message).toContain('name');
    });

    it('answers 409 name_taken for a name already seated (case and spaces aside), and seats nobody', async () => {
      const room = await api.createRoom({ hostName: 'H' });
      await api.join(room.code, 'Sam');
      expect(await api.request('POST', `/api/rooms/${room.code}/players`, { name: ' sAM ' })).toMatchObject({
        status: 409,
        body: { code: 'name_taken' },
      });
      expect(
        await queryDb(server, `SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1 AND kind = 'proposal'`, [room.roomId]),
      ).toEqual([{ n: 1 }]);
    });

    it('answers 409 room_full past maxPlayers and seats nobody more', async () => {
      const room = await api.createRoom({ hostName: 'H', maxPlayers: 2 });
      await api.join(room.code, 'A');
      await api.join(room.code, 'B');
      expect(await api.request('POST', `/api/rooms/${room.code}/players`, { name: 'C' })).toMatchObject({
        status: 409,
        body: { code: 'room_full' },
      });
      expect(
        await queryDb(server, `SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1 AND kind = 'proposal'`, [room.roomId]),
      ).toEqual([{ n: 2 }]);
    });

    // Section 13: a room seats late players unless it was opened with lateJoin false (question-kinds.e2e-spec.ts seats one).
    it('answers 409 game_in_progress while a game runs in a room that takes no late players', async () => {
      const room = await seatRoom(server, ['Ann'], { lateJoin: false });
      await room.host.send('room.start');
      expect(await api.request('POST', `/api/rooms/${room.code}/players`, { name: 'Late' })).toMatchObject({
        status: 409,
        body: { code: 'game_in_progress' },
      });
      closeAll(room);
    });
  });

  describe('DELETE /api/rooms/{code}', () => {
    it('needs the host token of that room: 401 without, 403 for a player', async () => {
      const room = await api.createRoom({ hostName: 'H' });
      const player = await api.join(room.code, 'A');
      expect((await api.request('DELETE', `/api/rooms/${room.code}`)).status).toBe(401);
      expect((await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: 'Bearer forged.token' })).status).toBe(
        401,
      );
      expect(
        (await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${player.playerToken}` })).status,
      ).toBe(403);
      const other = await api.createRoom({ hostName: 'H2' });
      expect(
        (await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${other.hostToken}` })).status,
      ).toBe(404);
      expect(await queryDb(server, 'SELECT closed_at FROM rooms WHERE id = $1', [room.roomId])).toEqual([{ closed_at: null }]);
      expect(
        (await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status,
      ).toBe(204);
      // A closed room is answered from its row: 410 room_gone.
      expect(await api.request('GET', `/api/rooms/${room.code}`)).toMatchObject({ status: 410, body: { code: 'room_gone' } });
    });
  });

  describe('decks', () => {
    it('lists the built-in deck with at least 200 questions', async () => {
      const res = await api.request('GET', '/api/decks');
      expect(res.status).toBe(200);
      expect(res.body.next).toBeNull();
      const builtin = res.body.decks.find((d: any) => d.builtin);
      expect(builtin.questions).toBeGreaterThanOrEqual(200);
      const shapes = await queryDb(
        server,
        `SELECT jsonb_array_length(choices) AS n, count(*)::int AS questions, count(DISTINCT text)::int AS texts FROM questions WHERE deck_id = $1 GROUP BY 1`,
        [builtin.id],
      );
      expect(shapes).toEqual([{ n: 4, questions: builtin.questions, texts: builtin.questions }]);
    });

    it('takes a custom deck and plays it', async () => {
      const questions = [
        { text: 'Two plus two?', choices: ['3', '4'], correct: 1 },
        { text: 'Colour of the sky on a clear day?', choices: ['Blue', 'Green', 'Red'], correct: 0 },
      ];
      const created = await api.request('POST', '/api/decks', { name: 'Tiny', questions });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Tiny', questions: 2, builtin: false });
      const room = await seatRoom(server, ['Ann'], { deckId: created.body.id, questionCount: 2 });
      await room.host.send('room.start');
      const open = await room.players[0].nextEvent('question.open');
      expect(questions.map((q) => q.text)).toContain(open.data.text);
      closeAll(room);
    });

    it('refuses a deck too small for the room, and malformed decks with 400 naming the field', async () => {
      const tiny = await api.request('POST', '/api/decks', { name: 'One', questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 0 }] });
      const res = await api.request('POST', '/api/rooms', { hostName: 'H', deckId: tiny.body.id, questionCount: 2 });
      expect(res).toMatchObject({ status: 400, body: { code: 'bad_data' } });
      const bad = await api.request('POST', '/api/decks', { name: 'Bad', questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 2 }] });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('questions[0].correct');
      const dup = await api.request('POST', '/api/decks', { name: 'Dup', questions: [{ text: 'Q?', choices: ['a', 'a'], correct: 0 }] });
      expect(dup.body.message).toContain('questions[0].choices');
    });
  });

  describe('games and the leaderboard', () => {
    it('draws distinct questions, prefers unplayed ones on a rematch, and ranks finished games', async () => {
      const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 5, secondsPerQuestion: 5 });
      for (let game = 0; game < 2; game++) {
        await room.host.send('room.start');
        for (let q = 0; q < 5; q++) {
          const open = await room.players[0].nextEvent('question.open');
          await Promise.all(room.players.map((p, i) => p.send('room.answer', { question: open.data.index, choice: i })));
        }
        await room.host.nextEvent('rematch.open');
        if (game === 0) {
          await Promise.all(room.players.map((p) => p.send('room.rematch', { vote: true })));
          await room.host.nextEvent('rematch.decided');
        }
      }
      // What each finished game reported: its questions, by their text.
      const all = (await finishedGames(server, room.roomId)).flatMap((g) => g.questions.map((q: { text: string }) => q.text));
      expect(all).toHaveLength(10);
      expect(new Set(all).size).toBe(10);
      const board = await api.request('GET', '/api/leaderboard?limit=50');
      expect(board.status).toBe(200);
      const ann = board.body.players.find((p: any) => p.playerId === room.playerIds[0]);
      expect(ann).toMatchObject({ name: 'Ann', games: 2 });
      expect((await api.request('GET', '/api/leaderboard?limit=0')).status).toBe(400);
      closeAll(room);
    });
  });

  describe('GET /health', () => {
    it('reports status, build and the database round trip', async () => {
      const res = await api.request('GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'ok', version: 'test', sha: 'test', db: { ok: true } });
      expect(typeof res.body.db.roundTripMs).toBe('number');
      expect(typeof res.body.uptimeSeconds).toBe('number');
    });
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    expect((await api.request('GET', '/api/nothing')).body).toMatchObject({ statusCode: 404, code: 'not_found' });
  });
});
