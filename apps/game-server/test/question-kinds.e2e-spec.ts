import { parse } from 'csv-parse/sync';
import { HttpApi, SeatClient } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { RoomsService } from '../../../libs/server/src/rooms/rooms.service';
import { closeAll, queryDb, seatIn, seatRoom, waitFor } from './support';

// PROTOCOL.md section 13 on a real server and real sockets: a deck of every kind through the deck
// API (JSON and CSV, out and back in), played at the host's pace with a player who joins late,
// and its results as JSON and CSV.

const DECK = {
  name: 'Every kind',
  questions: [
    { text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome'], correct: 1 },
    { kind: 'truefalse', text: 'The Sun is a star.', correct: 0, seconds: 30 },
    { kind: 'multi', text: 'Which are prime?', choices: ['2', '3', '4', '9'], correct: [1, 0] },
    { kind: 'poll', text: 'Best season?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] },
    { kind: 'text', text: 'A vital force, in French?', accepted: ['Élan vital', 'Elan'], seconds: 60 },
  ],
};

describe('question kinds, the host’s pace and late arrivals', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));
  const api = () => new HttpApi(server.url);

  async function newDeck(): Promise<{ id: string; editToken: string }> {
    const { status, body } = await api().request('POST', '/api/decks', DECK);
    expect(status).toBe(201);
    return body;
  }

  describe('the deck API', () => {
    it('keeps each kind’s fields, shows the right answers only to the edit token, and stores them by kind', async () => {
      const deck = await newDeck();
      const open = (await api().request('GET', `/api/decks/${deck.id}`)).body;
      expect(open.questions).toEqual([
        { text: 'Capital of France?', choices: ['Berlin', 'Paris', 'Rome'] },
        { kind: 'truefalse', text: 'The Sun is a star.', choices: ['True', 'False'], seconds: 30 },
        { kind: 'multi', text: 'Which are prime?', choices: ['2', '3', '4', '9'] },
        { kind: 'poll', text: 'Best season?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] },
        { kind: 'text', text: 'A vital force, in French?', seconds: 60 },
      ]);
      const owned = (await api().request('GET', `/api/decks/${deck.id}`, undefined, { authorization: `Bearer ${deck.editToken}` })).body;
      expect(owned.questions.map((q: any) => q.correct ?? q.accepted ?? null)).toEqual([1, 0, [0, 1], null, ['Élan vital', 'Elan']]);
      const rows = await queryDb(
        server,
        'SELECT kind, correct, right_choices AS "rightChoices" FROM questions WHERE deck_id = $1 ORDER BY position',
        [deck.id],
      );
      expect(rows).toEqual([
        { kind: 'choice', correct: 1, rightChoices: null },
        { kind: 'truefalse', correct: 0, rightChoices: null },
        { kind: 'multi', correct: null, rightChoices: [0, 1] },
        { kind: 'poll', correct: null, rightChoices: null },
        { kind: 'text', correct: null, rightChoices: null },
      ]);
    });

    it('replaces a deck’s questions with other kinds in place, and reads them back', async () => {
      const deck = await newDeck();
      const auth = { authorization: `Bearer ${deck.editToken}` };
      const changed = [
        { kind: 'text', text: 'Capital of France?', accepted: ['Paris'] },
        { kind: 'poll', text: 'The Sun is a star.', choices: ['Yes', 'No'], image: 'img-sun' },
        { text: 'Which are prime?', choices: ['2', '4'], correct: 0, seconds: 5 },
      ];
      expect((await api().request('PUT', `/api/decks/${deck.id}`, { name: 'Changed', questions: changed }, auth)).status).toBe(200);
      expect((await api().request('GET', `/api/decks/${deck.id}`, undefined, auth)).body.questions).toEqual(changed);
      expect(await queryDb(server, 'SELECT count(*)::int AS n FROM questions WHERE deck_id = $1', [deck.id])).toEqual([{ n: 3 }]);
    });

    it.each([
      ['a text question without accepted answers', { kind: 'text', text: 'Q?' }, 'accepted'],
      ['a poll with a right answer', { kind: 'poll', text: 'Q?', choices: ['a', 'b'], correct: 0 }, 'correct'],
      ['a multi question with one index, not a list', { kind: 'multi', text: 'Q?', choices: ['a', 'b'], correct: 0 }, 'correct'],
      ['a true/false question with 2 as its answer', { kind: 'truefalse', text: 'Q?', correct: 2 }, 'correct'],
      ['a choice question with accepted answers', { text: 'Q?', choices: ['a', 'b'], correct: 0, accepted: ['a'] }, 'accepted'],
      ['seconds past 240', { text: 'Q?', choices: ['a', 'b'], correct: 0, seconds: 241 }, 'seconds'],
      ['an unknown kind', { kind: 'slider', text: 'Q?' }, 'kind'],
    ])('refuses %s with 400 naming the field, making no deck', async (_what, question, field) => {
      const before = await queryDb(server, 'SELECT count(*)::int AS n FROM decks');
      const { status, body } = await api().request('POST', '/api/decks', { name: 'Bad', questions: [question] });
      expect(status).toBe(400);
      expect(body.message).toMatch(new RegExp(`questions\\[0\\]\\.${field} `));
      expect(await queryDb(server, 'SELECT count(*)::int AS n FROM decks')).toEqual(before);
    });

    it('exports a deck as CSV with its edit token, which imports back as the same questions', async () => {
      const deck = await newDeck();
      expect((await fetch(`${server.url}/api/decks/${deck.id}.csv`)).status).toBe(403);
      const res = await fetch(`${server.url}/api/decks/${deck.id}.csv`, { headers: { authorization: `Bearer ${deck.editToken}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      const csv = await res.text();
      expect(csv.split('\r\n')[0]).toBe('question,choice1,choice2,choice3,choice4,choice5,choice6,correct,kind,seconds,accepted');
      const imported = await fetch(`${server.url}/api/decks/import?name=Again`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: csv,
      });
      expect(imported.status).toBe(201);
      const again = (await imported.json()) as { id: string; editToken: string };
      const read = async (d: { id: string; editToken: string }) =>
        (await api().request('GET', `/api/decks/${d.id}`, undefined, { authorization: `Bearer ${d.editToken}` })).body.questions;
      expect(await read(again)).toEqual(await read(deck));
    });

    it('serves a template with a row of each kind, which imports as it says', async () => {
      const template = await (await fetch(`${server.url}/api/decks/template.csv`)).text();
      const res = await fetch(`${server.url}/api/decks/import?name=Template`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: template,
      });
      expect(res.status).toBe(201);
      const rows: string[][] = parse(template, { from_line: 2 });
      expect(new Set(rows.map((r) => r[8] || 'choice'))).toEqual(new Set(['choice', 'truefalse', 'multi', 'poll', 'text']));
    });
  });

  describe('a game', () => {
    it('plays every kind at the host’s pace with a late arrival, and its results show each kind right', async () => {
      const deck = await newDeck();
      const opened = await api().createRoom({
        hostName: 'Teacher',
        deckId: deck.id,
        questionCount: 5,
        pace: 'host',
        order: 'deck',
        revealSeconds: 0,
      });
      const room = await seatIn(server.url, opened, ['Ann', 'Bob']);
      const [ann, bob] = room.players;
      expect((await room.host.send('room.start')).status).toBe(200);

      // 0, choice: Ann right, Bob wrong. The reveal waits for the host.
      let open = await room.host.nextEvent('question.open');
      expect(open.data).not.toHaveProperty('kind');
      await Promise.all([ann.send('room.answer', { question: 0, choice: 1 }), bob.send('room.answer', { question: 0, choice: 0 })]);
      expect((await room.host.nextEvent('question.closed')).data).toMatchObject({ correct: 1, counts: [1, 1, 0] });

      // A player joins during the reveal: seated now, playing from question 1.
      const late = await api().join(opened.code, 'Cy');
      const cy = await SeatClient.connect(server.url, late.playerToken);
      expect((await cy.nextEvent('room.state')).data).toMatchObject({ phase: 'reveal' });
      expect((await room.host.send('room.next')).status).toBe(200);

      // 1, true/false, its own 30 s.
      open = await room.host.nextEvent('question.open');
      expect(open.data).toMatchObject({ index: 1, kind: 'truefalse', choices: ['True', 'False'], seconds: 30 });
      expect(open.data.closesAt - open.data.serverTime).toBe(30_000);
      const players = [ann, bob, cy];
      await Promise.all(players.map((p, i) => p.send('room.answer', { question: 1, choice: i === 1 ? 1 : 0 })));
      expect((await room.host.nextEvent('question.closed')).data).toMatchObject({ correct: 0, counts: [2, 1] });
      await room.host.send('room.next');

      // 2, multi: only the exact set is right; a single choice is refused as the wrong kind.
      await room.host.nextEvent('question.open', (e) => e.data.index === 2);
      expect((await ann.send('room.answer', { question: 2, choice: 0 })).error).toMatchObject({ code: 'wrong_answer_kind' });
      await Promise.all([
        ann.send('room.answer', { question: 2, choices: [1, 0] }),
        bob.send('room.answer', { question: 2, choices: [0] }),
        cy.send('room.answer', { question: 2, choices: [0, 1, 2] }),
      ]);
      expect((await room.host.nextEvent('question.closed')).data).toMatchObject({ correct: [0, 1], counts: [3, 2, 1, 0] });
      await room.host.send('room.next');

      // 3, poll: no right answer; the host closes it before Cy answers.
      await room.host.nextEvent('question.open', (e) => e.data.index === 3);
      await Promise.all([ann.send('room.answer', { question: 3, choice: 1 }), bob.send('room.answer', { question: 3, choice: 1 })]);
      await room.host.send('room.next');
      const poll = await room.host.nextEvent('question.closed');
      expect(poll.data).toMatchObject({ correct: null, counts: [0, 2, 0, 0] });
      expect(poll.data.scores.map((s: any) => s.points)).toEqual([0, 0, 0]);
      await room.host.send('room.next');

      // 4, text: typed answers; the reveal counts them and holds none of them.
      open = await room.host.nextEvent('question.open', (e) => e.data.index === 4);
      expect(open.data).not.toHaveProperty('choices');
      await Promise.all([
        ann.send('room.answer', { question: 4, text: '  élan   VITAL ' }),
        bob.send('room.answer', { question: 4, text: 'Lyon' }),
        cy.send('room.answer', { question: 4, text: 'elan' }),
      ]);
      const typed = await room.host.nextEvent('question.closed');
      expect(typed.data).toMatchObject({ correct: ['Élan vital', 'Elan'], counts: { right: 2, wrong: 1 } });
      expect(JSON.stringify(typed.data)).not.toMatch(/VITAL|Lyon/);
      await room.host.send('room.next');

      const finished = await room.host.nextEvent('game.finished');
      expect(finished.data.standings.find((s: any) => s.name === 'Cy')).toMatchObject({ from: 1 });
      const results = (await api().request('GET', `/api/results/${finished.data.resultsId}`)).body;
      expect(results.questions.map((q: any) => q.kind)).toEqual(['choice', 'truefalse', 'multi', 'poll', 'text']);
      expect(results.questions[3].rightRate).toBeNull();
      expect(results.questions[4].answers.find((a: any) => a.name === 'Bob')).toMatchObject({ text: 'Lyon', right: false });
      expect(results.questions[2].answers.find((a: any) => a.name === 'Ann')).toMatchObject({ choices: [0, 1], right: true });
      expect(results.standings.find((s: any) => s.name === 'Cy')).toMatchObject({ from: 1 });
      const csv: string[][] = parse(await (await fetch(`${server.url}/api/results/${finished.data.resultsId}.csv`)).text(), {
        from_line: 2,
      });
      const cell = (question: number, player: string) => csv.find((r) => r[1] === String(question) && r[3] === player);
      expect(cell(3, 'Ann')?.slice(4, 6)).toEqual(['2 | 3', 'yes']);
      expect(cell(4, 'Ann')?.slice(4, 6)).toEqual(['Summer', '']);
      expect(cell(5, 'Ann')?.slice(4, 6)).toEqual(['élan   VITAL', 'yes']);
      // Cy played from question 2 (1-based): no row for question 1.
      expect(cell(1, 'Cy')).toBeUndefined();
      cy.close();
      closeAll(room);
    });

    it('refuses a late player with 409 game_in_progress in a room opened with lateJoin false', async () => {
      const opened = await api().createRoom({ hostName: 'Teacher', lateJoin: false, questionCount: 1 });
      const room = await seatIn(server.url, opened, ['Ann']);
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      const { status, body } = await api().request('POST', `/api/rooms/${opened.code}/players`, { name: 'Cy' });
      expect([status, body.code]).toEqual([409, 'game_in_progress']);
      closeAll(room);
    });

    it('refuses room.next with 409 clock_paced in a room the clock moves on', async () => {
      const opened = await api().createRoom({ hostName: 'Teacher', questionCount: 1 });
      const room = await seatIn(server.url, opened, ['Ann']);
      await room.host.send('room.start');
      const reply = await room.host.send('room.next');
      expect([reply.status, reply.error?.code]).toEqual([409, 'clock_paced']);
      closeAll(room);
    });
  });

  describe('a host-paced reveal nobody watches', () => {
    let quick: RunningServer;
    withTestServer((s) => (quick = s), { passivateAfterMs: 300 });

    it('leaves memory with nothing due, and comes back waiting for the host, who moves on', async () => {
      const room = await seatRoom(quick, ['Ann'], { questionCount: 2, pace: 'host' });
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
      await room.players[0].send('room.answer', { question: 0, choice: 0 });
      await room.host.nextEvent('question.closed');
      closeAll(room);
      const rooms = quick.app.get(RoomsService);
      await waitFor(() => rooms.registry.peek(room.code) === undefined, `room ${room.code} to leave memory`);
      const host = await SeatClient.connect(quick.url, room.hostToken);
      const state = (await host.nextEvent('room.state')).data;
      expect(state).toMatchObject({ phase: 'reveal', settings: { pace: 'host' }, reveal: { index: 0 } });
      expect(state.reveal).not.toHaveProperty('nextAt');
      expect((await host.send('room.next')).status).toBe(200);
      expect((await host.nextEvent('question.open')).data).toMatchObject({ index: 1 });
      host.close();
    });
  });
});
