import fc from 'fast-check';
import { isStorableText } from '@app/protocol';
import { CARDS_COMMANDS } from '@app/games/cards';
import { TICTACTOE_WIRE } from '@app/games/tictactoe';
import { TRIVIA_COMMANDS } from '@app/games/trivia';
import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom } from './support';

/**
 * No client text can make a room unstorable (issue 32): every string a client sends, in any field
 * of any command or HTTP body, is refused at the edge with a 400 or stored as PostgreSQL takes it,
 * and the room it was sent to plays its game to the end.
 */
describe('hostile text', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  /** Texts PostgreSQL refuses, texts it takes that look alarming, and texts too long for any field. */
  const hostileText = fc.oneof(
    fc.constantFrom(
      '\0',
      'a\u0000b',
      '\ud800',
      'x\udfff',
      '\udc00\ud800',
      '\u2028',
      '\u2029',
      '\ufeff',
      '😀',
      'é'.repeat(64 * 1024),
      'x'.repeat(65),
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc.string({ unit: fc.constantFrom('a', '\0', '\ud83d', '\ude00', '\u2028', ' '), minLength: 1, maxLength: 12 }),
  );

  /** Where a reply for a frame with this id comes back: its id, or null when the id is refused. */
  const replyId = (id: string) => (id.length >= 1 && id.length <= 64 && isStorableText(id) ? id : null);

  /**
   * Sends `text` as the id, as the type, and in every data field of every command of `commands`
   * (and as an extra field), on a socket of the seat whose token is given; a reply that accepts a
   * frame holding an unstorable text fails the test. A socket closed for too many bad frames
   * (4008), or for a frame over 16 KiB (1009), is opened again. Commands that end the seat, or start the game, are left out where
   * `spare` names them: with a storable text in an extra field they would be accepted, and the
   * room's game would move on.
   */
  async function throwAt(
    token: string,
    commands: Record<string, { shape: Record<string, unknown> }>,
    text: string,
    n: number,
    spare: string[] = [],
  ): Promise<void> {
    const frames: { id: string; type: string; data: Record<string, unknown> }[] = [
      { id: text, type: 'ping', data: {} },
      { id: `t-${n}`, type: text, data: {} },
    ];
    for (const [type, schema] of Object.entries(commands)) {
      if (spare.includes(type)) continue;
      for (const field of [...Object.keys(schema.shape), 'extra'])
        frames.push({ id: `f-${n}-${type}-${field}`, type, data: { [field]: text } });
      frames.push({ id: `k-${n}-${type}`, type, data: { [text]: 1 } });
    }
    let socket: { client: SeatClient; closed?: number } | undefined;
    // A frame over 16 KiB closes its socket with 1009; too many refused frames, with 4008.
    let lastSent = '';
    for (const frame of frames) {
      if (!socket || socket.closed !== undefined) {
        if (socket) expect(socket.closed).toBe(Buffer.byteLength(lastSent) > 16 * 1024 ? 1009 : 4008);
        const client = await SeatClient.connect(server.url, token);
        const opened: { client: SeatClient; closed?: number } = { client };
        void client.closed.then(({ code }) => (opened.closed = code));
        socket = opened;
      }
      const sent = socket;
      lastSent = JSON.stringify(frame);
      const reply = await Promise.race([sent.client.sendRaw(lastSent, replyId(frame.id)), sent.client.closed.then(() => undefined)]);
      if (reply === undefined) continue;
      if (!isStorableText(JSON.stringify(frame))) expect(reply.status).toBe(400);
      expect(reply.status).toBeLessThan(500);
    }
    socket?.client.close();
  }

  /** A text in a URL's query, byte for byte as UTF-8 (a lone surrogate arrives as U+FFFD, as from any browser). */
  const inQuery = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

  /** Each HTTP body and query field that takes a text, given `text`: never a 5xx, and a 400 for a text PostgreSQL refuses. */
  async function postEverywhere(code: string, text: string): Promise<void> {
    const question = { text: 'Q?', choices: ['a', 'b'], correct: 0 };
    const csv = (cell: string) => `question,choice1,choice2,correct\n"${cell.replace(/"/g, '""')}",a,b,1\n`;
    // Each request, with the text the server reads from it.
    const attempts: [Promise<{ status: number }>, string][] = [
      [api.request('POST', '/api/rooms', { hostName: text, questionCount: 1 }), text],
      [api.request('POST', '/api/rooms', { game: 'tictactoe', name: text }), text],
      [api.request('POST', '/api/tables', { name: text }), text],
      [api.request('POST', `/api/rooms/${code}/players`, { name: text }), text],
      [api.request('POST', '/api/decks', { name: text, questions: [question] }), text],
      [api.request('POST', '/api/decks', { name: 'Deck', questions: [{ ...question, text }] }), text],
      [api.request('POST', '/api/decks', { name: 'Deck', questions: [{ ...question, choices: ['a', text] }] }), text],
      // A CSV goes as UTF-8 text, in which a lone surrogate becomes U+FFFD (JSON escapes it instead).
      [api.request('POST', '/api/decks/import?name=Deck', csv(text), { 'content-type': 'text/csv' }), Buffer.from(text).toString()],
    ];
    // A URL has a length limit of its own (431): the long texts go in bodies only.
    if (text.length <= 200)
      attempts.push([
        api.request('POST', `/api/decks/import?name=${inQuery(text)}`, csv('Q?'), { 'content-type': 'text/csv' }),
        Buffer.from(text).toString(),
      ]);
    for (const [request, read] of attempts) {
      const { status } = await request;
      expect(status).toBeLessThan(500);
      if (!isStorableText(read)) expect([400, 413]).toContain(status);
    }
    // A spectator's body takes no field: whatever it holds is not read, and nothing of it is stored.
    expect((await api.request('POST', `/api/rooms/${code}/spectators`, { [text]: text })).status).toBeLessThan(500);
  }

  it('answers a ping whose id holds a NUL with 400, and the room finishes its game', async () => {
    const room = await seatRoom(server, ['Ann'], { questionCount: 2, secondsPerQuestion: 0.5, revealSeconds: 0 });
    const [ann] = room.players;
    expect(await ann.sendRaw(JSON.stringify({ id: 'p\u0000', type: 'ping', data: {} }))).toMatchObject({
      id: null,
      status: 400,
      error: { code: 'bad_id' },
    });
    expect((await room.host.send('room.start')).status).toBe(200);
    const open = await ann.nextEvent('question.open');
    expect((await ann.send('room.answer', { question: open.data.index, choice: 0 })).status).toBe(200);
    await room.host.nextEvent('game.finished');
    closeAll(room);
  });

  it('throws arbitrary texts at every field of every command and HTTP body, then plays each room to its end', async () => {
    const room = await seatRoom(server, ['Ann', 'Bo'], { questionCount: 2, secondsPerQuestion: 30, revealSeconds: 0 });
    const [ann, bo] = room.players;
    const table = (await api.request('POST', '/api/tables', { name: 'Cy' })).body;
    const cy = await SeatClient.connect(server.url, table.playerToken);
    const board = (await api.request('POST', '/api/rooms', { game: 'tictactoe', name: 'Xena' })).body;
    const otto = await api.join(board.code, 'Otto');
    const x = await SeatClient.connect(server.url, board.token);
    const o = await SeatClient.connect(server.url, otto.playerToken);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        n++;
        await throwAt(room.playerTokens[0], TRIVIA_COMMANDS, text, n, ['room.leave']);
        await throwAt(room.hostToken, TRIVIA_COMMANDS, text, n, ['room.leave', 'room.start']);
        await throwAt(table.playerToken, CARDS_COMMANDS, text, n, ['table.leave']);
        await throwAt(board.token, TICTACTOE_WIRE.commands, text, n);
        await postEverywhere(room.code, text);
      }),
      { numRuns: 25 },
    );
    // Nothing in the journal or a snapshot holds what PostgreSQL refuses (it could not), and the
    // room still plays: the lobby's hostile frames first, then the game's.
    expect((await room.host.send('room.start')).status).toBe(200);
    for (let q = 0; q < 2; q++) {
      const open = await ann.nextEvent('question.open');
      await throwAt(room.playerTokens[1], TRIVIA_COMMANDS, 'a\u0000', 1000 + q, ['room.leave']);
      expect((await ann.send('room.answer', { question: open.data.index, choice: 0 })).status).toBe(200);
      expect((await bo.send('room.answer', { question: open.data.index, choice: 1 })).status).toBe(200);
      await room.host.nextEvent('question.closed');
    }
    await room.host.nextEvent('game.finished');
    const [{ games }] = await queryDb(server, 'SELECT count(*)::int AS games FROM finished_games WHERE room_id = $1', [room.roomId]);
    expect(games).toBe(1);
    // The board is played to its end too, and the card table still takes its human's commands.
    for (const [client, cell] of [
      [x, 0],
      [o, 3],
      [x, 1],
      [o, 4],
      [x, 2],
    ] as const)
      expect((await client.send('ttt.move', { cell })).status).toBe(200);
    const boardGames = await queryDb(server, 'SELECT count(*)::int AS games FROM finished_games WHERE room_id = $1', [board.roomId]);
    expect(boardGames).toEqual([{ games: 1 }]);
    expect((await cy.send('ping')).status).toBe(200);
    closeAll(room);
    for (const c of [cy, x, o]) c.close();
  });
});
