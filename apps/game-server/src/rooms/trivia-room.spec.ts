import { ReplyFrame, Role } from '@app/protocol';
import { Viewer } from '@app/room-engine';
import { TriviaState, Write } from '@app/trivia';
import { RoomCommitter } from './room-committer';
import { TriviaRoom } from './trivia-room';

// The actor's own logic with a stand-in committer: ordering, batching and replies. What reaches
// PostgreSQL is tested end to end in apps/game-server/test.

const T0 = 1_700_000_000_000;

function state(players: string[]): TriviaState {
  return {
    roomId: 'room-1',
    code: 'ABCDEF',
    hostName: 'H',
    phase: 'lobby',
    settings: { deckId: 'd', questionCount: 1, secondsPerQuestion: 20, revealSeconds: 0, maxPlayers: 8, minPlayers: 2, rematchSeconds: 30, expirySeconds: 300 },
    players: players.map((id) => ({ id, name: id, connected: false, score: 0, correct: 0, elapsedSum: 0 })),
    gamesPlayed: 0,
    expiresAt: T0 + 300_000,
    playedQuestionIds: [],
  };
}

/** A viewer that records what it was sent, in order. */
function viewer(role: Role, playerId?: string) {
  const log: string[] = [];
  const replies: ReplyFrame[] = [];
  const v: Viewer = {
    socketId: `${role}-${playerId ?? ''}`,
    role,
    playerId,
    wire: 'json',
    sendEvent: (type) => log.push(`event:${type}`),
    sendReply: (r) => (replies.push(r), log.push(`reply:${r.id}:${r.status}`)),
    close: (code) => log.push(`close:${code}`),
  };
  return { v, log, replies };
}

function room(players: string[], commit: (w: Write) => Promise<any>) {
  const writes: Write[] = [];
  const committer = { commit: (w: Write) => (writes.push(w), commit(w)) } as unknown as RoomCommitter;
  const r = new TriviaRoom(state(players), {
    committer,
    clock: { now: () => Date.now() },
    observer: { command: () => undefined },
    mailboxDepth: 8,
    passivateAfterMs: 60_000,
    onDispose: () => undefined,
    log: () => undefined,
  });
  return { r, writes };
}

const arrival = () => ({ at: Date.now(), hr: performance.now() });
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((res) => setTimeout(res, 5));
  expect(cond()).toBe(true);
};

describe(TriviaRoom.name, () => {
  it('commits answers that wait together with one write and then replies to each', async () => {
    const questions = [{ id: 1, text: 'Q', choices: ['a', 'b'], correct: 0 }];
    const { r, writes } = room(['p1', 'p2', 'p3'], async (w) =>
      w.kind === 'startGame' ? { kind: 'startGame', started: { gameId: 'g', questions } } : { kind: 'done' },
    );
    const host = viewer('host');
    const ps = ['p1', 'p2', 'p3'].map((id) => viewer('player', id));
    for (const p of [host, ...ps]) r.attach(p.v);
    r.submit(host.v, { id: 'start', type: 'room.start', data: {} }, arrival());
    await until(() => host.replies.length === 1);
    ps.forEach((p, i) => r.submit(p.v, { id: `a${i}`, type: 'room.answer', data: { question: 0, choice: 0 } }, arrival()));
    await until(() => ps.every((p) => p.replies.length === 1));
    expect(ps.map((p) => p.replies[0].status)).toEqual([200, 200, 200]);
    const answerWrites = writes.filter((w) => w.kind === 'recordAnswers');
    expect(answerWrites).toHaveLength(1);
    expect(answerWrites[0].kind === 'recordAnswers' && answerWrites[0].answers.map((a) => a.playerId)).toEqual(['p1', 'p2', 'p3']);
    r.dispose();
  });

  it('replies 503 to every command of a batch whose commit fails unexpectedly, and changes nothing', async () => {
    const { r } = room(['p1', 'p2'], async () => {
      throw new Error('a bug, not an outage');
    });
    const a = viewer('player', 'p1');
    const b = viewer('player', 'p2');
    r.attach(a.v);
    r.attach(b.v);
    r.submit(a.v, { id: 'x', type: 'room.leave', data: {} }, arrival());
    await until(() => a.replies.length === 1);
    expect(a.replies[0]).toMatchObject({ id: 'x', status: 503, error: { code: 'database_unavailable' } });
    expect(r.snapshot.players.map((p) => p.id)).toEqual(['p1', 'p2']);
    r.dispose();
  });

  it('sends the reply to room.leave before the events and before closing with 4003', async () => {
    const { r } = room(['p1', 'p2'], async () => ({ kind: 'done' }));
    const a = viewer('player', 'p1');
    r.attach(a.v);
    r.submit(a.v, { id: 'bye', type: 'room.leave', data: {} }, arrival());
    await until(() => a.log.includes('close:4003'));
    const tail = a.log.slice(a.log.indexOf('reply:bye:200'));
    expect(tail).toEqual(['reply:bye:200', 'event:player.left', 'close:4003']);
    r.dispose();
  });

  it('answers every command still waiting when the room closes', async () => {
    let release!: () => void;
    const { r } = room(['p1', 'p2'], () => new Promise((res) => (release = () => res({ kind: 'done' }))));
    const a = viewer('player', 'p1');
    const host = viewer('host');
    r.attach(a.v);
    r.attach(host.v);
    r.submit(host.v, { id: 'k', type: 'room.kick', data: { playerId: 'p2' } }, arrival());
    await until(() => release !== undefined);
    r.submit(a.v, { id: 'late', type: 'room.leave', data: {} }, arrival());
    r.dispose();
    expect(a.replies).toEqual([expect.objectContaining({ id: 'late', status: 409, error: expect.objectContaining({ code: 'room_closed' }) })]);
    release();
  });
});
