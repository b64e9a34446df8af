import { SeatClient, GameEvent, HttpApi, Reply } from '@app/bot-kit';
import { ServerProcess } from '../../../test/support/server-process';
import { finishedGames, journaled, SeatedRoom, seatRoom, sleep } from './support';

// PROTOCOL.md section 5, proved from outside: a real server process is killed (kill -9, or SIGTERM
// which drains) in the middle of a game and started again on the same database; every seat comes
// back with the token it had. Only the wire protocol and the database are looked at.

/** Waits across a restart: a reconnect and the room's reactivation come before the next frame. */
const WAIT_MS = 10_000;

/** An answer as the room's journal holds it: who, which question, what choice, under which id. */
interface AnswerRow {
  readonly player_id: string;
  readonly question_index: number;
  readonly choice: number;
  readonly command_id: string;
}

/** The right choice of every question of the deck these tests play (they write it, so they know it without a frame). */
const RIGHT = 1;
const correct = [RIGHT, RIGHT, RIGHT];

interface Returned {
  readonly client: SeatClient;
  /** The first frame on the new socket. */
  readonly state: GameEvent;
}

describe('crash recovery of a real server process', () => {
  let server: ServerProcess;

  let deckId: string;

  beforeAll(async () => {
    server = await ServerProcess.create();
  });
  // A test that failed after a kill leaves the server down; the next one starts it again.
  beforeEach(async () => {
    if (!server.isRunning) await server.start();
    if (deckId) return;
    // A deck whose every question has the same right choice.
    const questions = Array.from({ length: 10 }, (_, i) => ({
      text: `Question ${i + 1}?`,
      choices: ['north', 'east', 'south', 'west'],
      correct: RIGHT,
    }));
    const created = await new HttpApi(server.url).request('POST', '/api/decks', { name: 'Recovery deck', questions });
    expect(created.status).toBe(201);
    deckId = created.body.id;
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it(
    'comes back mid-question after kill -9: same question and clock, scores from the answers, replayed ids, then the game and a rematch finish',
    () =>
      server.explainFailure(async () => {
        const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { deckId, questionCount: 3, secondsPerQuestion: 30, revealSeconds: 0.5 });
        const [ann, bob, cy] = room.players;
        expect((await room.host.send('room.start', {}, 'host-start-1')).status).toBe(200);
        await room.host.nextEvent('question.open', (e) => e.data.index === 0);

        // Question 0 in full: everyone answers, so it closes early and question 1 opens.
        const q0 = await Promise.all([
          ann.send('room.answer', { question: 0, choice: correct[0] }, 'ann-q0'),
          bob.send('room.answer', { question: 0, choice: wrong(correct[0]) }, 'bob-q0'),
          cy.send('room.answer', { question: 0, choice: correct[0] }, 'cy-q0'),
        ]);
        expect(q0.map((r) => r.status)).toEqual([200, 200, 200]);
        const closed0 = await room.host.nextEvent('question.closed', (e) => e.data.index === 0);
        const open1 = await room.host.nextEvent('question.open', (e) => e.data.index === 1);
        // Two of three answer question 1; their 200s say the answers are committed.
        const acknowledged = [
          await ann.send('room.answer', { question: 1, choice: correct[1] }, 'ann-q1'),
          await bob.send('room.answer', { question: 1, choice: wrong(correct[1]) }, 'bob-q1'),
        ];
        expect(acknowledged).toEqual([accepted('ann-q1'), accepted('bob-q1')]);

        await crash(room, 'SIGKILL');
        const committed = await answerRows(room);
        expect(committed.map((r) => r.command_id).sort()).toEqual(['ann-q0', 'ann-q1', 'bob-q0', 'bob-q1', 'cy-q0']);

        await server.restart();
        // Cy, who has not answered, comes back first: with only answered players connected, the
        // question could rightly close at once.
        const back = await reconnect(room, [2, 0, 1]);
        const resumed = view(back.host.state);
        expect(resumed).toEqual({
          phase: 'question',
          question: { index: 1, closesAt: open1.data.closesAt, answered: 2, of: 3 },
          scores: totalsOf(closed0),
        });
        expect(back.players.map((p) => p.state.data.you.answer ?? null)).toEqual([
          { question: 1, choice: correct[1] },
          { question: 1, choice: wrong(correct[1]) },
          null,
        ]);

        // The acknowledged ids again: their original replies, and nothing new recorded.
        const replays = await Promise.all([
          back.players[0].client.send('room.answer', { question: 1, choice: correct[1] }, 'ann-q1'),
          back.players[1].client.send('room.answer', { question: 1, choice: wrong(correct[1]) }, 'bob-q1'),
        ]);
        expect(replays).toEqual(acknowledged);
        expect(await answerRows(room)).toEqual(committed);

        // The third answer closes question 1; question 2 is played; the game finishes.
        const [annBack, bobBack, cyBack] = back.players.map((p) => p.client);
        expect(await cyBack.send('room.answer', { question: 1, choice: correct[1] }, 'cy-q1')).toEqual(accepted('cy-q1'));
        const closed1 = await back.host.client.nextEvent('question.closed', (e) => e.data.index === 1);
        await playQuestion(
          back.players.map((p) => p.client),
          2,
          correct[2],
          ['ann', 'bob', 'cy'],
        );
        const finished = await back.host.client.nextEvent('game.finished');
        const summary = await expectStandingsFromAnswers(
          room,
          finished,
          [0, 1, 2].flatMap((q) => [
            [0, q, correct[q]],
            [1, q, wrong(correct[q])],
            [2, q, correct[q]],
          ]),
        );
        // The scores the room came back with, and those after question 1, are the recorded answers' points.
        expect(resumed.scores).toEqual(scoresFrom(summary, 1));
        expect(totalsOf(closed1)).toEqual(scoresFrom(summary, 2));

        // A rematch with everyone: back to the lobby, and a second game starts.
        await back.host.client.nextEvent('rematch.open');
        const votes = await Promise.all([annBack, bobBack, cyBack].map((c, i) => c.send('room.rematch', { vote: true }, `vote-${i}`)));
        expect(votes.map((v) => v.status)).toEqual([200, 200, 200]);
        expect((await back.host.client.nextEvent('rematch.decided')).data).toEqual({ accepted: true, playerIds: room.playerIds });
        await back.host.client.nextEvent('room.state', (e) => e.data.phase === 'lobby');
        expect((await back.host.client.send('room.start', {}, 'host-start-2')).status).toBe(200);
        expect((await annBack.nextEvent('question.open')).data.index).toBe(0);
        expect((await finishedGames(server, room.roomId)).map((g) => g.no)).toEqual([1]);
        // The first game's start went with the journal up to its finish (its snapshot holds it).
        expect((await journaled(server, room.roomId, 'room.start')).map((c) => c.commandId)).toEqual(['host-start-2']);
        closeEvery(back);
      }),
    60_000,
  );

  it(
    'closes a question whose deadline passed while the server was down, as the room comes back, and plays on',
    () =>
      server.explainFailure(async () => {
        const room = await seatRoom(server, ['Ann', 'Bob'], { deckId, questionCount: 2, secondsPerQuestion: 2, revealSeconds: 0.5 });
        const [ann] = room.players;
        expect((await room.host.send('room.start', {}, 'host-start-1')).status).toBe(200);
        const open0 = await room.host.nextEvent('question.open', (e) => e.data.index === 0);
        const acknowledged = await ann.send('room.answer', { question: 0, choice: correct[0] }, 'ann-q0');
        expect(acknowledged).toEqual(accepted('ann-q0'));

        await crash(room, 'SIGKILL');
        expect(room.host.events.some((e) => e.type === 'question.closed')).toBe(false); // killed while the question was open
        await untilPast(open0.data.closesAt);
        const committed = await answerRows(room);
        await server.restart();
        const back = await reconnect(room, [1, 0]);

        // Question 0's deadline took effect on reactivation: it is closed before anyone sees the room.
        const first = view(back.host.state);
        expect({ phase: first.phase, index: first.question?.index ?? first.reveal?.index }).toEqual(
          first.phase === 'reveal' ? { phase: 'reveal', index: 0 } : { phase: 'question', index: 1 },
        );
        expect(await back.players[0].client.send('room.answer', { question: 0, choice: correct[0] }, 'ann-q0')).toEqual(acknowledged);
        expect(await answerRows(room)).toEqual(committed);

        // The game goes on to its end.
        await playQuestion(
          back.players.map((p) => p.client),
          1,
          correct[1],
          ['ann', 'bob'],
        );
        const finished = await back.host.client.nextEvent('game.finished');
        // Bob never answered question 0: nothing was made up for him.
        const summary = await expectStandingsFromAnswers(room, finished, [
          [0, 0, correct[0]],
          [0, 1, correct[1]],
          [1, 1, wrong(correct[1])],
        ]);
        expect(first.scores).toEqual(scoresFrom(summary, 1));
        closeEvery(back);
      }),
    60_000,
  );

  // The short variant: the reveal ends while the server is down, so the room comes back on the
  // next question (a long reveal would make the test wait it out to finish the game).
  it(
    'moves on to the next question after kill -9 during a reveal that ended while the server was down',
    () =>
      server.explainFailure(async () => {
        const room = await seatRoom(server, ['Ann', 'Bob'], { deckId, questionCount: 2, secondsPerQuestion: 30, revealSeconds: 2 });
        const [ann, bob] = room.players;
        expect((await room.host.send('room.start', {}, 'host-start-1')).status).toBe(200);
        await room.host.nextEvent('question.open', (e) => e.data.index === 0);
        const acknowledged = await Promise.all([
          ann.send('room.answer', { question: 0, choice: correct[0] }, 'ann-q0'),
          bob.send('room.answer', { question: 0, choice: wrong(correct[0]) }, 'bob-q0'),
        ]);
        expect(acknowledged).toEqual([accepted('ann-q0'), accepted('bob-q0')]);
        await room.host.nextEvent('question.closed', (e) => e.data.index === 0);
        // A spectator's first frame tells when the reveal ends.
        const watcher = await SeatClient.connect(server.url, (await new HttpApi(server.url).spectate(room.code)).spectatorToken);
        const reveal = (await watcher.nextEvent('room.state')).data;
        expect(reveal).toMatchObject({ phase: 'reveal', reveal: { index: 0 } });

        await crash({ ...room, players: [...room.players, watcher] }, 'SIGKILL');
        if (room.host.events.some((e) => e.type === 'question.open' && e.data.index === 1)) {
          throw new Error('precondition: the kill came after the reveal had ended; the machine is too slow for this test');
        }
        await untilPast(reveal.reveal.nextAt);
        const committed = await answerRows(room);
        await server.restart();
        const back = await reconnect(room, [0, 1]);

        const first = view(back.host.state);
        expect({ phase: first.phase, index: first.question?.index }).toEqual({ phase: 'question', index: 1 });
        // The next question gets its whole clock, counted from no earlier than the reveal's end.
        expect(first.question!.closesAt).toBeGreaterThanOrEqual(reveal.reveal.nextAt + 30_000);
        expect(await answerRows(room)).toEqual(committed);
        const replays = await Promise.all([
          back.players[0].client.send('room.answer', { question: 0, choice: correct[0] }, 'ann-q0'),
          back.players[1].client.send('room.answer', { question: 0, choice: wrong(correct[0]) }, 'bob-q0'),
        ]);
        expect(replays).toEqual(acknowledged);

        await playQuestion(
          back.players.map((p) => p.client),
          1,
          correct[1],
          ['ann', 'bob'],
        );
        const finished = await back.host.client.nextEvent('game.finished');
        const summary = await expectStandingsFromAnswers(
          room,
          finished,
          [0, 1].flatMap((q) => [
            [0, q, correct[q]],
            [1, q, wrong(correct[q])],
          ]),
        );
        expect(first.scores).toEqual(scoresFrom(summary, 1));
        closeEvery(back);
      }),
    60_000,
  );

  it(
    'keeps an acknowledged rematch vote across kill -9, and the rematch is decided as the rules say',
    () =>
      server.explainFailure(async () => {
        const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { deckId, questionCount: 1, secondsPerQuestion: 30, revealSeconds: 0.2 });
        expect((await room.host.send('room.start', {}, 'host-start-1')).status).toBe(200);
        await room.host.nextEvent('question.open', (e) => e.data.index === 0);
        await playQuestion(room.players, 0, correct[0], ['ann', 'bob', 'cy']);
        const finished = await room.host.nextEvent('game.finished');
        const open = await room.host.nextEvent('rematch.open');
        const annVote = await room.players[0].send('room.rematch', { vote: true }, 'ann-vote');
        expect(annVote).toMatchObject({ id: 'ann-vote', status: 200 });

        await crash(room, 'SIGKILL');
        expect(await journaled(server, room.roomId, 'room.rematch')).toEqual([
          { seat: room.playerIds[0], commandId: 'ann-vote', data: { vote: true } },
        ]);
        await server.restart();
        const back = await reconnect(room, [1, 2, 0]);

        // Still finished, the same standings, the vote open on the same clock with Ann's vote counted.
        expect(back.host.state.data).toMatchObject({
          phase: 'finished',
          standings: finished.data.standings,
          rematch: { closesAt: open.data.closesAt, voted: 1, of: 3 },
        });
        expect(back.host.state.data.rematch).not.toHaveProperty('decided');
        // The finished game's results link outlives the process (PROTOCOL.md section 12).
        expect(back.host.state.data.resultsId).toBe(finished.data.resultsId);
        expect(await new HttpApi(server.url).request('GET', `/api/results/${finished.data.resultsId}`)).toMatchObject({
          status: 200,
          body: { code: room.code, standings: finished.data.standings },
        });
        expect(back.players.map((p) => p.state.data.you.rematchVote ?? null)).toEqual([true, null, null]);
        expect(await back.players[0].client.send('room.rematch', { vote: true }, 'ann-vote')).toEqual(annVote);

        // Two yes of three: it waits for the third vote; then accepted with the two who said yes.
        const [, bobBack, cyBack] = back.players.map((p) => p.client);
        expect((await bobBack.send('room.rematch', { vote: true }, 'bob-vote')).status).toBe(200);
        // A decision would reach Bob's socket with his vote's reply; a ping's reply comes after it.
        expect((await bobBack.send('ping', {}, 'bob-ping')).status).toBe(200);
        expect(bobBack.events.some((e) => e.type === 'rematch.decided')).toBe(false);
        expect((await cyBack.send('room.rematch', { vote: false }, 'cy-vote')).status).toBe(200);
        expect((await back.host.client.nextEvent('rematch.decided')).data).toEqual({
          accepted: true,
          playerIds: room.playerIds.slice(0, 2),
        });
        expect((await cyBack.waitClosed()).code).toBe(4003);
        const lobby = await back.host.client.nextEvent('room.state', (e) => e.data.phase === 'lobby');
        expect(lobby.data.players.map((p: { id: string }) => p.id)).toEqual(room.playerIds.slice(0, 2));
        expect(await journaled(server, room.roomId, 'room.rematch')).toHaveLength(3);
        expect((await back.host.client.send('room.start', {}, 'host-start-2')).status).toBe(200);
        expect((await bobBack.nextEvent('question.open')).data.index).toBe(0);
        closeEvery(back);
      }),
    60_000,
  );

  it(
    'resumes mid-question after a SIGTERM restart (the drain) the same way',
    () =>
      server.explainFailure(async () => {
        const room = await seatRoom(server, ['Ann', 'Bob'], { deckId, questionCount: 2, secondsPerQuestion: 30, revealSeconds: 0.2 });
        const [ann] = room.players;
        expect((await room.host.send('room.start', {}, 'host-start-1')).status).toBe(200);
        await room.host.nextEvent('question.open', (e) => e.data.index === 0);
        await playQuestion(room.players, 0, correct[0], ['ann', 'bob']);
        const open1 = await room.host.nextEvent('question.open', (e) => e.data.index === 1);
        const acknowledged = await ann.send('room.answer', { question: 1, choice: correct[1] }, 'ann-q1');
        expect(acknowledged).toEqual(accepted('ann-q1'));

        const closes = await crash(room, 'SIGTERM');
        expect(closes).toEqual([1001, 1001, 1001]);
        const committed = await answerRows(room);
        await server.restart();
        const back = await reconnect(room, [1, 0]);

        const resumed = view(back.host.state);
        expect({ ...resumed, scores: undefined }).toEqual({
          phase: 'question',
          question: { index: 1, closesAt: open1.data.closesAt, answered: 1, of: 2 },
          scores: undefined,
        });
        expect(back.players.map((p) => p.state.data.you.answer ?? null)).toEqual([{ question: 1, choice: correct[1] }, null]);
        expect(await back.players[0].client.send('room.answer', { question: 1, choice: correct[1] }, 'ann-q1')).toEqual(acknowledged);
        expect(await answerRows(room)).toEqual(committed);

        expect(await back.players[1].client.send('room.answer', { question: 1, choice: wrong(correct[1]) }, 'bob-q1')).toEqual(
          accepted('bob-q1'),
        );
        const finished = await back.host.client.nextEvent('game.finished');
        const summary = await expectStandingsFromAnswers(
          room,
          finished,
          [0, 1].flatMap((q) => [
            [0, q, correct[q]],
            [1, q, wrong(correct[q])],
          ]),
        );
        expect(resumed.scores).toEqual(scoresFrom(summary, 1));
        closeEvery(back);
      }),
    60_000,
  );

  /** Kills the server with `signal`, waits for it to exit and for every socket to see the end. */
  async function crash(room: Pick<SeatedRoom, 'host' | 'players'>, signal: 'SIGKILL' | 'SIGTERM'): Promise<number[]> {
    const exit = await server.kill(signal);
    expect(exit).toEqual(signal === 'SIGKILL' ? { code: null, signal: 'SIGKILL' } : { code: 0, signal: null });
    const closed = await Promise.all([room.host, ...room.players].map((c) => c.waitClosed()));
    return closed.map((c) => c.code);
  }

  /** Every seat reconnects with its old token: the host first, then the players in `order`. */
  async function reconnect(room: SeatedRoom, order: number[]): Promise<{ host: Returned; players: Returned[] }> {
    const host = await returnWith(room.hostToken);
    const players: Returned[] = [];
    for (const i of order) players[i] = await returnWith(room.playerTokens[i]);
    return { host, players };
  }

  async function returnWith(token: string): Promise<Returned> {
    const client = await SeatClient.connect(server.url, token, { timeoutMs: WAIT_MS });
    return { client, state: await client.nextEvent('room.state') };
  }

  /** Everyone answers question `index` (the first player right, the second wrong, the rest right); it closes early. */
  async function playQuestion(players: SeatClient[], index: number, correct: number, names: string[]): Promise<void> {
    for (const p of players) await questionOpen(p, index);
    const replies = await Promise.all(
      players.map((p, i) =>
        p.send('room.answer', { question: index, choice: i === 1 ? wrong(correct) : correct }, `${names[i]}-q${index}`),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(players.map(() => 200));
    await players[0].nextEvent('question.closed', (e) => e.data.index === index);
  }

  /** Question `index` is open for this socket: announced, or already open in its first room.state. */
  async function questionOpen(client: SeatClient, index: number): Promise<void> {
    const inState = client.events.some((e) => e.type === 'room.state' && e.data.phase === 'question' && e.data.question?.index === index);
    if (!inState) await client.nextEvent('question.open', (e) => e.data.index === index);
  }

  /** The answers the room's journal holds, by question and id. */
  async function answerRows(room: SeatedRoom): Promise<AnswerRow[]> {
    const rows = (await journaled(server, room.roomId, 'room.answer')).map((c) => ({
      player_id: c.seat!,
      question_index: c.data.question,
      choice: c.data.choice,
      command_id: c.commandId,
    }));
    return rows.sort((a, b) => a.question_index - b.question_index || a.command_id.localeCompare(b.command_id));
  }

  /**
   * game.finished agrees with the finished game's record, and the record with the answers the
   * test had acknowledged (`[player, question, choice]`, the player by its place in the room): the
   * same answers, each scored (right or not, its points) as the standings add up. The journal
   * went with the game's finish, whose snapshot and record hold what it held. Returns the record.
   */
  async function expectStandingsFromAnswers(room: SeatedRoom, finished: GameEvent, acknowledged: number[][]): Promise<any> {
    const summary = (await finishedGames(server, room.roomId)).at(-1);
    const answers: any[] = summary.questions.flatMap((q: any) => q.answers.map((a: any) => ({ ...a, question: q.index })));
    expect(await answerRows(room)).toEqual([]);
    const expectedAnswers = acknowledged.map(([player, question, choice]) => [room.playerIds[player], question, choice]);
    expect(answers.map((a) => [a.playerId, a.question, a.choice]).sort()).toEqual(expectedAnswers.sort());
    for (const a of answers) expect(a.correct).toBe(a.choice === RIGHT);
    const expected = room.playerIds
      .filter((id) => finished.data.standings.some((s: { playerId: string }) => s.playerId === id))
      .map((playerId) => ({
        playerId,
        score: sum(answers.filter((a) => a.playerId === playerId).map((a) => a.points)),
        correct: answers.filter((a) => a.playerId === playerId && a.correct).length,
      }));
    const byPlayer = (a: { playerId: string }, b: { playerId: string }) => a.playerId.localeCompare(b.playerId);
    const scored = (standings: any[]) =>
      standings.map((s) => ({ playerId: s.playerId, score: s.score, correct: s.correct })).sort(byPlayer);
    expect(scored(finished.data.standings)).toEqual([...expected].sort(byPlayer));
    expect(scored(summary.standings)).toEqual([...expected].sort(byPlayer));
    return summary;
  }

  /** Waits until the wall clock is past `epochMs` (a deadline), never longer than it takes to get there. */
  async function untilPast(epochMs: number): Promise<void> {
    if (epochMs - Date.now() > WAIT_MS) throw new Error(`the deadline ${epochMs} is too far away to wait for`);
    while (Date.now() <= epochMs) await sleep(Math.min(50, epochMs - Date.now() + 1));
  }
});

function accepted(id: string): Reply {
  return { type: 'reply', id, status: 200, data: { accepted: true } };
}

function wrong(correct: number): number {
  return correct === 0 ? 1 : 0;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Each player's score in a finished game's record: the points of their answers to the questions before `uptoIndex`. */
function scoresFrom(summary: any, uptoIndex: number): Record<string, number> {
  const points = new Map<string, number>(summary.standings.map((s: { playerId: string }) => [s.playerId, 0]));
  for (const q of summary.questions)
    if (q.index < uptoIndex) for (const a of q.answers) points.set(a.playerId, (points.get(a.playerId) ?? 0) + a.points);
  return Object.fromEntries(points);
}

function totalsOf(closed: GameEvent): Record<string, number> {
  return Object.fromEntries(closed.data.scores.map((s: { playerId: string; total: number }) => [s.playerId, s.total]));
}

/** The part of a room.state these tests compare: phase, the open question or the reveal, scores. */
function view(state: GameEvent): {
  phase: string;
  question?: { index: number; closesAt: number; answered: number; of: number };
  reveal?: { index: number };
  scores: Record<string, number>;
} {
  const d = state.data;
  return {
    phase: d.phase,
    ...(d.question
      ? { question: { index: d.question.index, closesAt: d.question.closesAt, answered: d.question.answered, of: d.question.of } }
      : {}),
    ...(d.reveal ? { reveal: { index: d.reveal.index } } : {}),
    scores: Object.fromEntries(d.players.map((p: { id: string; score: number }) => [p.id, p.score])),
  };
}

function closeEvery(back: { host: Returned; players: Returned[] }): void {
  for (const r of [back.host, ...back.players]) r.client.close();
}
