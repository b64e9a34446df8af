import { createHash } from 'node:crypto';
import { HttpApi } from '@app/bot-kit';
import { BUILTIN_DECK_ID } from '../../../migrations';
import { withTestServer } from '../../../test/support/test-server';
import { RunningServer } from '../src/server';
import { closeAll, queryDb, seatRoom } from './support';

// The deck API of PROTOCOL.md section 12 against a real server and database: every refusal
// answers with its code and changes nothing; the edit token is the only right to change a deck.

const HEADER = 'question,choice1,choice2,choice3,choice4,choice5,choice6,correct';
const DECK = {
  name: 'Capitals',
  questions: [
    { text: 'Capital of France?', choices: ['Paris', 'Lyon'], correct: 0 },
    { text: 'Capital of Japan?', choices: ['Osaka', 'Kyoto', 'Tokyo'], correct: 2 },
  ],
};
const UNKNOWN = '11111111-1111-4111-8111-111111111111';

describe('deck API', () => {
  let server: RunningServer;
  let api: HttpApi;
  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const csv = (text: string, name = 'Imported', type = 'text/csv') =>
    api.request('POST', `/api/decks/import?name=${encodeURIComponent(name)}`, text, { 'content-type': type });
  /** What the database holds of decks and questions: a refusal must leave it as it was. */
  const holdings = async () =>
    (
      await queryDb(
        server,
        `SELECT (SELECT count(*) FROM decks)::int AS decks, (SELECT count(*) FROM questions)::int AS questions, (SELECT max(updated_at) FROM decks) AS updated`,
      )
    )[0];
  async function created(body: unknown = DECK): Promise<{ id: string; editToken: string }> {
    const res = await api.request('POST', '/api/decks', body);
    expect(res.status).toBe(201);
    return res.body;
  }

  describe('GET /api/decks', () => {
    const list = (query = '', tokens?: string[]) =>
      api.request('GET', `/api/decks${query}`, undefined, tokens ? { authorization: `Bearer ${tokens.join(', ')}` } : {});
    const ids = (res: { body: { decks: { id: string }[] } }) => res.body.decks.map((d) => d.id);

    it("lists the built-in deck to anyone, and a host's decks only to whoever presents their edit tokens", async () => {
      const [mine, also, theirs] = [
        await created(),
        await created({ ...DECK, name: 'Also mine' }),
        await created({ ...DECK, name: 'Theirs' }),
      ];
      const anyone = await list();
      expect(anyone).toMatchObject({ status: 200, body: { next: null } });
      expect(ids(anyone)).toEqual([BUILTIN_DECK_ID]);
      const host = await list('', [mine.editToken, also.editToken]);
      expect(host.body).toEqual({
        decks: [
          expect.objectContaining({ id: BUILTIN_DECK_ID, builtin: true }),
          { id: mine.id, name: DECK.name, builtin: false, questions: 2 },
          { id: also.id, name: 'Also mine', builtin: false, questions: 2 },
        ],
        next: null,
      });
      expect(ids(host)).not.toContain(theirs.id);
      // A deck's id is no key to the list: only its token is.
      expect(ids(await list(`?cursor=${BUILTIN_DECK_ID}`, [mine.editToken]))).toEqual([mine.id]);
    });

    it('pages with limit and cursor until next is null', async () => {
      const decks = [];
      for (let i = 0; i < 5; i++) decks.push(await created({ ...DECK, name: `Page ${i}` }));
      const tokens = decks.map((d) => d.editToken);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`, tokens);
        expect(res.status).toBe(200);
        expect(res.body.decks.length).toBeLessThanOrEqual(2);
        seen.push(...ids(res));
        cursor = res.body.next;
        pages++;
      } while (cursor);
      expect(seen).toEqual([BUILTIN_DECK_ID, ...decks.map((d) => d.id)]);
      expect(pages).toBe(3);
    });

    it.each([
      ['a limit of 0', '?limit=0', undefined, 'limit must be a whole number from 1 to 100'],
      ['a limit past the bound', '?limit=101', undefined, 'limit must be a whole number from 1 to 100'],
      ['a cursor that is no deck id', '?cursor=nope', undefined, 'cursor must be a UUID'],
      ['a token that is no edit token', '', 'Bearer short', "authorization token 1 is not a deck's edit token (43 base64url characters)"],
      ['an authorization that is not Bearer', '', 'Basic abc', 'authorization must be `Bearer` and edit tokens separated by commas'],
      [
        'more than 100 tokens',
        '',
        `Bearer ${Array.from({ length: 101 }, () => 'a'.repeat(43)).join(',')}`,
        'authorization must hold at most 100 edit tokens',
      ],
    ])('refuses %s with 400 naming it', async (_what, query, authorization, message) => {
      const res = await api.request('GET', `/api/decks${query}`, undefined, authorization ? { authorization } : {});
      expect(res).toEqual({ status: 400, body: { statusCode: 400, code: 'bad_data', message } });
    });
  });

  describe('POST /api/decks', () => {
    it('answers 201 with the id and an edit token that the database keeps only as its SHA-256', async () => {
      const res = await api.request('POST', '/api/decks', DECK);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Capitals',
        builtin: false,
        questions: 2,
        editToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const [row] = await queryDb(server, `SELECT edit_token_hash, to_jsonb(d)::text AS everything FROM decks d WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row.edit_token_hash).toEqual(createHash('sha256').update(res.body.editToken).digest());
      expect(row.everything).not.toContain(res.body.editToken);
      // Each deck its own token.
      expect((await created()).editToken).not.toBe(res.body.editToken);
    });

    const q = (over: Record<string, unknown> = {}) => ({ text: 'Q?', choices: ['a', 'b'], correct: 0, ...over });
    it.each([
      ['no name', 'name', { questions: [q()] }],
      ['no questions', 'questions', { name: 'N', questions: [] }],
      ['201 questions', 'questions', { name: 'N', questions: Array.from({ length: 201 }, (_, i) => q({ text: `Q${i}?` })) }],
      ['one choice', 'questions[0].choices', { name: 'N', questions: [q({ choices: ['a'] })] }],
      ['seven choices', 'questions[0].choices', { name: 'N', questions: [q({ choices: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] })] }],
      ['correct past the choices', 'questions[1].correct', { name: 'N', questions: [q(), q({ correct: 2 })] }],
      ['an empty choice', 'questions[0].choices[1]', { name: 'N', questions: [q({ choices: ['a', ' '] })] }],
      ['a question too long', 'questions[0].text', { name: 'N', questions: [q({ text: 'x'.repeat(301) })] }],
    ])('refuses %s with 400 bad_data naming %s, and adds nothing', async (_what, field, body) => {
      const before = await holdings();
      const res = await api.request('POST', '/api/decks', body);
      expect(res).toMatchObject({ status: 400, body: { statusCode: 400, code: 'bad_data' } });
      expect(res.body.message).toContain(field);
      expect(await holdings()).toEqual(before);
    });

    it('takes 200 questions, and refuses a body over 1 MiB with 413', async () => {
      const full = { name: 'Full', questions: Array.from({ length: 200 }, (_, i) => q({ text: `Question ${i}?` })) };
      expect((await api.request('POST', '/api/decks', full)).body.questions).toBe(200);
      const before = await holdings();
      const huge = await api.request('POST', '/api/decks', { name: 'Huge', questions: [q({ text: 'x'.repeat(1024 * 1024) })] });
      expect(huge).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
      expect(huge.body.message).toContain(String(1024 * 1024));
      expect(await holdings()).toEqual(before);
    });
  });

  describe('POST /api/decks/import', () => {
    it('reads a spreadsheet’s CSV (BOM, CRLF, quoted commas, quotes and line breaks) into a deck that plays', async () => {
      const file =
        `\uFEFF${HEADER}\r\n` +
        `"Which is a fruit, botanically?",Carrot,Tomato,,,,,2\r\n` +
        `"Who wrote ""Hamlet""?",Dickens,Shakespeare,Austen,,,,2\r\n` +
        `\r\n` +
        `"A question on\r\ntwo lines?",yes,no,maybe,perhaps,never,always,6\r\n`;
      const res = await csv(file, 'From a spreadsheet');
      expect(res).toMatchObject({
        status: 201,
        body: { name: 'From a spreadsheet', builtin: false, questions: 3, editToken: expect.any(String) },
      });
      const read = await api.request('GET', `/api/decks/${res.body.id}`, undefined, bearer(res.body.editToken));
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: res.body.id,
        name: 'From a spreadsheet',
        builtin: false,
        editable: true,
        questions: [
          { text: 'Which is a fruit, botanically?', choices: ['Carrot', 'Tomato'], correct: 1 },
          { text: 'Who wrote "Hamlet"?', choices: ['Dickens', 'Shakespeare', 'Austen'], correct: 1 },
          { text: 'A question on two lines?', choices: ['yes', 'no', 'maybe', 'perhaps', 'never', 'always'], correct: 5 },
        ],
      });
      // A room plays it: the right choice of a question is the CSV's, counted from 1 there.
      const room = await seatRoom(server, ['Ann'], { deckId: res.body.id, questionCount: 3 });
      try {
        await room.host.send('room.start');
        const open = await room.players[0].nextEvent('question.open');
        const asked = read.body.questions.find((x: { text: string }) => x.text === open.data.text);
        expect(open.data.choices).toEqual(asked.choices);
        await room.players[0].send('room.answer', { question: open.data.index, choice: asked.correct });
        const closed = await room.players[0].nextEvent('question.closed');
        expect(closed.data.correct).toBe(asked.correct);
      } finally {
        closeAll(room);
      }
    });

    it('serves a template that imports as it is', async () => {
      const res = await fetch(`${server.url}/api/decks/template.csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="deck-template.csv"');
      const template = await res.text();
      // Section 13: the kind columns after correct, and a question of each kind.
      expect(template.split('\r\n')[0]).toBe(`${HEADER},kind,seconds,accepted`);
      expect(await csv(template, 'Template')).toMatchObject({ status: 201, body: { questions: 7 } });
    });

    it.each([
      ['a choice gap', 3, 3, `${HEADER}\r\nQ?,a,b,,,,,1\r\nR?,a,,c,,,,1\r\n`],
      ['correct counted from 0', 2, 8, `${HEADER}\r\nQ?,a,b,,,,,0\r\n`],
      ['an unclosed quote', 3, 1, `${HEADER}\r\nQ?,a,b,,,,,1\r\n"R?,a,b,,,,,1\r\n`],
      ['a header that is a question', 1, 4, `Q?,a,b,1\r\n`],
      ['an empty file', 1, 1, ``],
    ])('refuses %s with 400 bad_csv at line %i, column %i, and adds nothing', async (_what, line, column, file) => {
      const before = await holdings();
      const res = await csv(file);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        code: 'bad_csv',
        line,
        column,
        message: expect.stringMatching(new RegExp(`^line ${line}, column ${column}: `)),
      });
      expect(await holdings()).toEqual(before);
    });

    it('refuses a CSV over 1 MiB with 413, a missing name with 400, and a body that is not CSV with 415', async () => {
      const before = await holdings();
      const row = `"${'x'.repeat(250)}",a,b,,,,,1\r\n`;
      const big = await csv(HEADER + '\r\n' + row.repeat(Math.ceil((1024 * 1024) / row.length)));
      expect(big).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
      const unnamed = await api.request('POST', '/api/decks/import', `${HEADER}\r\nQ?,a,b,,,,,1\r\n`, { 'content-type': 'text/csv' });
      expect(unnamed).toMatchObject({ status: 400, body: { code: 'bad_data' } });
      expect(unnamed.body.message).toContain('name');
      const json = await api.request('POST', '/api/decks/import?name=J', DECK);
      expect(json).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
      expect(await holdings()).toEqual(before);
    });
  });

  describe('GET /api/decks/{id}', () => {
    it('shows the questions without their right answers unless the edit token comes with the request', async () => {
      const deck = await created();
      const open = await api.request('GET', `/api/decks/${deck.id}`);
      expect(open.status).toBe(200);
      expect(open.body.questions).toEqual(DECK.questions.map(({ text, choices }) => ({ text, choices })));
      expect(JSON.stringify(open.body)).not.toContain('correct');
      const owned = await api.request('GET', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken));
      expect(owned.body.questions).toEqual(DECK.questions);
      expect(await api.request('GET', `/api/decks/${deck.id}`, undefined, bearer('not-the-token'))).toMatchObject({
        status: 403,
        body: { code: 'forbidden' },
      });
    });

    it('never shows the built-in deck’s answers, and answers 404 for an unknown id or one that is not a UUID', async () => {
      const builtin = await api.request('GET', `/api/decks/${BUILTIN_DECK_ID}`);
      expect(builtin.body).toMatchObject({ builtin: true, editable: false });
      expect(builtin.body.questions.length).toBeGreaterThanOrEqual(200);
      expect(builtin.body.questions.every((x: object) => !('correct' in x))).toBe(true);
      expect(await api.request('GET', `/api/decks/${UNKNOWN}`)).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
      expect(await api.request('GET', '/api/decks/not-a-deck')).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
    });
  });

  describe('PUT and DELETE /api/decks/{id}', () => {
    const EDITED = {
      name: 'Capitals, edited',
      questions: [{ text: 'Capital of Italy?', choices: ['Rome', 'Milan', 'Turin'], correct: 0 }],
    };

    it('refuse without the token, with another deck’s token, on an unknown id, and on the built-in deck, changing nothing', async () => {
      const deck = await created();
      const other = await created();
      const before = await holdings();
      for (const [method, body] of [
        ['PUT', EDITED],
        ['DELETE', undefined],
      ] as const) {
        expect(await api.request(method, `/api/decks/${deck.id}`, body)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
        expect(await api.request(method, `/api/decks/${deck.id}`, body, { authorization: 'Basic xyz' })).toMatchObject({
          status: 403,
          body: { code: 'forbidden' },
        });
        expect(await api.request(method, `/api/decks/${deck.id}`, body, bearer(other.editToken))).toMatchObject({
          status: 403,
          body: { code: 'forbidden' },
        });
        expect(await api.request(method, `/api/decks/${UNKNOWN}`, body, bearer(deck.editToken))).toMatchObject({
          status: 404,
          body: { code: 'deck_not_found' },
        });
        expect(await api.request(method, `/api/decks/${BUILTIN_DECK_ID}`, body)).toMatchObject({
          status: 403,
          body: { code: 'deck_read_only' },
        });
        expect(await api.request(method, `/api/decks/${BUILTIN_DECK_ID}`, body, bearer(deck.editToken))).toMatchObject({
          status: 403,
          body: { code: 'deck_read_only' },
        });
      }
      expect(await holdings()).toEqual(before);
      expect((await api.request('GET', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).body).toMatchObject(DECK);
    });

    it('PUT refuses a bad deck with 400 naming the field, and changes nothing', async () => {
      const deck = await created();
      const before = await holdings();
      const res = await api.request(
        'PUT',
        `/api/decks/${deck.id}`,
        { name: 'X', questions: [{ text: 'Q?', choices: ['a', 'b'], correct: 5 }] },
        bearer(deck.editToken),
      );
      expect(res).toMatchObject({ status: 400, body: { code: 'bad_data' } });
      expect(res.body.message).toContain('questions[0].correct');
      expect(await holdings()).toEqual(before);
    });

    it('PUT with the token replaces the deck; DELETE with it removes it from the list, reads and edits', async () => {
      const deck = await created();
      const put = await api.request('PUT', `/api/decks/${deck.id}`, EDITED, bearer(deck.editToken));
      expect(put).toEqual({ status: 200, body: { id: deck.id, name: EDITED.name, builtin: false, questions: 1 } });
      expect((await api.request('GET', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).body).toMatchObject(EDITED);
      expect((await api.request('GET', '/api/decks', undefined, bearer(deck.editToken))).body.decks).toContainEqual({
        id: deck.id,
        name: EDITED.name,
        builtin: false,
        questions: 1,
      });

      expect(await api.request('DELETE', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).toEqual({
        status: 204,
        body: undefined,
      });
      expect(await api.request('GET', `/api/decks/${deck.id}`)).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
      expect(await api.request('PUT', `/api/decks/${deck.id}`, EDITED, bearer(deck.editToken))).toMatchObject({ status: 404 });
      expect(await api.request('DELETE', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).toMatchObject({ status: 404 });
      expect(
        (await api.request('GET', '/api/decks', undefined, bearer(deck.editToken))).body.decks.map((d: { id: string }) => d.id),
      ).not.toContain(deck.id);
      expect(await queryDb(server, 'SELECT count(*)::int AS n FROM questions WHERE deck_id = $1', [deck.id])).toEqual([{ n: 0 }]);
    });

    it('a game that is playing the deck plays on with the questions it drew when the deck is edited and then deleted', async () => {
      const deck = await created();
      const room = await seatRoom(server, ['Ann'], { deckId: deck.id, questionCount: 2 });
      try {
        await room.host.send('room.start');
        const first = await room.players[0].nextEvent('question.open');
        expect((await api.request('PUT', `/api/decks/${deck.id}`, EDITED, bearer(deck.editToken))).status).toBe(200);
        await room.players[0].send('room.answer', { question: first.data.index, choice: 0 });
        const second = await room.players[0].nextEvent('question.open');
        expect(DECK.questions.map((x) => x.text)).toContain(second.data.text);
        expect(second.data.text).not.toBe(first.data.text);
        expect((await api.request('DELETE', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).status).toBe(204);
        await room.players[0].send('room.answer', { question: second.data.index, choice: 0 });
        const finished = await room.players[0].nextEvent('game.finished');
        expect(finished.data.standings).toHaveLength(1);
      } finally {
        closeAll(room);
      }
    });
  });
});

// Its own server, with a command budget a busy machine cannot exhaust: the second PUT waits for
// the first one's lock, and that wait is what this test is about, not the 1 s budget.
describe('deck API: concurrent edits', () => {
  let api: HttpApi;
  withTestServer(
    (s) => {
      api = new HttpApi(s.url);
    },
    { commandTimeoutMs: 10_000 },
  );
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  async function created(): Promise<{ id: string; editToken: string }> {
    const res = await api.request('POST', '/api/decks', DECK);
    expect(res.status).toBe(201);
    return res.body;
  }

  it('leaves exactly one of two concurrent edits of a deck, whole', async () => {
    const long = {
      name: 'Long',
      questions: Array.from({ length: 200 }, (_, i) => ({ text: `Long ${i}?`, choices: ['a', 'b'], correct: i % 2 })),
    };
    const short = { name: 'Short', questions: DECK.questions.slice(0, 1) };
    for (let round = 0; round < 10; round++) {
      const deck = await created();
      const [a, b] = round % 2 === 0 ? [long, short] : [short, long];
      const puts = await Promise.all([a, b].map((body) => api.request('PUT', `/api/decks/${deck.id}`, body, bearer(deck.editToken))));
      expect(puts.map((p) => p.status)).toEqual([200, 200]);
      const read = (await api.request('GET', `/api/decks/${deck.id}`, undefined, bearer(deck.editToken))).body;
      expect([long, short]).toContainEqual({ name: read.name, questions: read.questions });
    }
  });
});
