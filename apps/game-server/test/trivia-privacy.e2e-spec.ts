import { HttpApi, SeatClient } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { seatRoom } from './support';

// Trivia's secrets over real sockets (PROTOCOL.md section 4): before a question closes, no frame to
// anyone (host and spectators included) carries its right choice, another player's choice, the
// counts per choice or the points; a player sees its own choice only, under `you.answer`.

const QUESTIONS = 2;
// Long enough that each question closes because every player answered, never by its clock.
const SECONDS = 120;
const SECRET_KEYS = new Set(['correct', 'choice', 'counts', 'points', 'reveal']);

/** Every key of a frame (at any depth) that may carry a secret, with where it is. */
function secretsIn(value: unknown, path = ''): { path: string; value: unknown }[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const at = path ? `${path}.${key}` : key;
    return [...(SECRET_KEYS.has(key) ? [{ path: at, value: v }] : []), ...secretsIn(v, at)];
  });
}

/**
 * The secrets a viewer was sent while a question was open: every frame between its
 * `question.open` (or a `room.state` in the question phase) and its `question.closed`. A player's
 * own choice under `you.answer.choice` is its own, not a leak.
 */
function leaksTo(client: SeatClient, ownChoices: ReadonlyMap<number, number> = new Map()): string[] {
  const leaks: string[] = [];
  let open: number | undefined;
  client.decoded.forEach((frame, i) => {
    const data = (frame as { data?: any }).data;
    if (frame.type === 'question.open') open = data.index;
    if (frame.type === 'room.state') open = data.phase === 'question' ? data.question.index : undefined;
    if (frame.type === 'question.closed') open = undefined;
    if (open === undefined) return;
    for (const s of secretsIn(data)) {
      const own =
        frame.type === 'room.state' &&
        s.path === 'you.answer.choice' &&
        data.you.answer.question === open &&
        ownChoices.get(open) === s.value;
      if (!own) leaks.push(`frame ${i} (${frame.type}) during question ${open}: ${s.path} = ${JSON.stringify(s.value)}`);
    }
  });
  return leaks;
}

describe('trivia’s privacy over real sockets', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s));

  it('shows nobody a right choice, another player’s choice or the points before the question closes, across reconnects', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: QUESTIONS, secondsPerQuestion: SECONDS });
    const { spectatorToken } = (await new HttpApi(server.url).request('POST', `/api/rooms/${room.code}/spectators`, {})).body;
    const spectators = [await SeatClient.connect(server.url, spectatorToken)];
    await spectators[0].nextEvent('room.state');
    const anns = [room.players[0]];
    const annChoices = new Map<number, number>();
    expect((await room.host.send('room.start')).status).toBe(200);
    for (let q = 0; q < QUESTIONS; q++) {
      await room.players[2].nextEvent('question.open', (e) => e.data.index === q);
      // Ann and Bob answer; then a spectator and Ann's second socket come in with the question open.
      annChoices.set(q, q % 2);
      expect((await anns[anns.length - 1].send('room.answer', { question: q, choice: q % 2 })).status).toBe(200);
      expect((await room.players[1].send('room.answer', { question: q, choice: 1 - (q % 2) })).status).toBe(200);
      const late = await SeatClient.connect(server.url, spectatorToken);
      const ann = await SeatClient.connect(server.url, room.playerTokens[0]);
      const [seen, annSeen] = [await late.nextEvent('room.state'), await ann.nextEvent('room.state')];
      expect(seen.data.phase).toBe('question');
      // Ann's new socket has her own choice back, and nothing of Bob's.
      expect(annSeen.data.you.answer).toEqual({ question: q, choice: q % 2 });
      spectators.push(late);
      anns.push(ann);
      await room.host.nextEvent('question.progress', (e) => e.data.index === q && e.data.answered === 2);
      // Cy answers last: the question closes, and only then are the right choice and the points sent.
      expect((await room.players[2].send('room.answer', { question: q, choice: 0 })).status).toBe(200);
      const closed = await room.host.nextEvent('question.closed', (e) => e.data.index === q);
      expect(closed.data).toHaveProperty('correct');
      expect(closed.data.counts.reduce((a: number, b: number) => a + b, 0)).toBe(3);
      for (const c of [...spectators, ...anns, room.players[1], room.players[2]])
        await c.nextEvent('question.closed', (e) => e.data.index === q);
    }
    await room.host.nextEvent('game.finished');

    expect(leaksTo(room.host)).toEqual([]);
    for (const s of spectators) expect(leaksTo(s)).toEqual([]);
    for (const a of anns) expect(leaksTo(a, annChoices)).toEqual([]);
    expect(
      leaksTo(
        room.players[1],
        new Map([
          [0, 1],
          [1, 0],
        ]),
      ),
    ).toEqual([]);
    expect(
      leaksTo(
        room.players[2],
        new Map([
          [0, 0],
          [1, 0],
        ]),
      ),
    ).toEqual([]);
    // The check can fail: each viewer was sent the secrets once the question closed.
    expect(secretsIn(room.host.decoded).some((s) => s.path.endsWith('correct'))).toBe(true);
    for (const c of [room.host, ...room.players, ...spectators, ...anns]) c.close();
  });
});
