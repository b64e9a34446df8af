import { CommandRecord, MetricsSnapshot, playTriviaRoom } from '@app/bot-kit';
import { RunningServer } from '../../game-server/src/server';
import { startTestServer } from '../../../test/support/test-server';

describe('playTriviaRoom against a real server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('plays a game, votes together, leaves one by one, and records every command', async () => {
    const records: CommandRecord[] = [];
    const log = server.runtime.meter.capture();
    const room = await playTriviaRoom({
      baseUrl: server.url,
      seats: 3,
      questionCount: 2,
      secondsPerQuestion: 5,
      revealSeconds: 0,
      pause: { baseMs: 10, spreadMs: 40 },
      record: (r) => records.push(r),
    });
    log.stop();
    expect(room.error).toBeUndefined();
    expect(room.games).toHaveLength(1);
    const count = (type: string) => records.filter((r) => r.type === type).length;
    expect(count('http POST /api/rooms')).toBe(1);
    expect(count('http POST /api/rooms/:code/players')).toBe(3);
    expect(count('ws.connect')).toBe(4);
    expect(count('room.start')).toBe(1);
    expect(count('room.answer')).toBe(6);
    expect(count('room.rematch')).toBe(3);
    expect(count('room.leave')).toBe(3);
    expect(count('http DELETE /api/rooms/:code')).toBe(1);
    for (const r of records) {
      expect(r.timedOut).toBe(false);
      expect(r.status).toBeGreaterThanOrEqual(101);
      expect(r.status).toBeLessThan(300);
      expect(r.ms).toBeGreaterThanOrEqual(0);
      expect(r.room).toBe(room.room);
    }
    // The votes went out in one turn, so every one was written before any reply came back. How close
    // together they left (sendSpreadMs) is a timing, which the bench prints, and no business of a
    // test.
    const { rematch } = room.games[0];
    expect(rematch.statuses).toEqual([200, 200, 200]);
    const replied = rematch.repliedAt.filter((t): t is number => t !== null);
    expect(replied).toHaveLength(3);
    expect(Math.max(...rematch.sentAt)).toBeLessThanOrEqual(Math.min(...replied));
    expect(rematch.replySpreadMs).not.toBeNull();
    expect(rematch.accepted).toBe(true);
    // The seats left in order, each after the previous one's reply.
    const leaves = records.filter((r) => r.type === 'room.leave');
    expect(leaves.map((r) => r.seat)).toEqual([1, 2, 3]);
    for (let i = 1; i < leaves.length; i++) expect(leaves[i].sentAt).toBeGreaterThanOrEqual(leaves[i - 1].sentAt + leaves[i - 1].ms);
  });

  it('plays the rematch in the same room when asked, and reports each game', async () => {
    const games: number[] = [];
    const room = await playTriviaRoom({
      baseUrl: server.url,
      seats: 2,
      questionCount: 1,
      secondsPerQuestion: 5,
      revealSeconds: 0,
      pause: { baseMs: 0, spreadMs: 20 },
      anotherGame: (played) => played < 2,
      onGame: (g) => games.push(g.game),
    });
    expect(room.error).toBeUndefined();
    expect(games).toEqual([1, 2]);
  });

  it.each(['compact-v1', 'compact-v2'] as const)(
    'plays the same with --wire %s: the sockets get the profile and every frame is decoded',
    async (wire) => {
      const records: CommandRecord[] = [];
      const bytes = (m: MetricsSnapshot, profile: string) => m.value('game_ws_outbound_bytes_total', { wire: profile });
      const before = await MetricsSnapshot.fetch(server.url);
      const room = await playTriviaRoom({
        baseUrl: server.url,
        seats: 3,
        questionCount: 2,
        secondsPerQuestion: 5,
        revealSeconds: 0,
        pause: { baseMs: 10, spreadMs: 40 },
        anotherGame: (played) => played < 2,
        wire,
        record: (r) => records.push(r),
      });
      const after = await MetricsSnapshot.fetch(server.url);
      expect(room.error).toBeUndefined();
      // The room plays two games, so the rematch and the lobby between them are read from decoded
      // frames too.
      expect(room.games.map((g) => g.game)).toEqual([1, 2]);
      expect(room.games.every((g) => g.rematch.accepted === true)).toBe(true);
      const count = (type: string) => records.filter((r) => r.type === type).length;
      expect(count('ws.decode')).toBe(0);
      expect(count('room.answer')).toBe(12);
      for (const r of records) {
        expect(r.timedOut).toBe(false);
        expect(r.status).toBeLessThan(300);
      }
      // Every socket of the room asked for the profile and got it, so nothing went out as JSON.
      expect(bytes(after, wire) - bytes(before, wire)).toBeGreaterThan(0);
      expect(bytes(after, 'json') - bytes(before, 'json')).toBe(0);
    },
  );

  it('stops at once when aborted, without calling it an error', async () => {
    const abort = new AbortController();
    const playing = playTriviaRoom({
      baseUrl: server.url,
      seats: 2,
      questionCount: 5,
      secondsPerQuestion: 5,
      revealSeconds: 0,
      pause: { baseMs: 1000, spreadMs: 0 },
      signal: abort.signal,
      onSeated: () => setTimeout(() => abort.abort(), 100),
    });
    const room = await playing;
    expect(room.aborted).toBe(true);
    expect(room.error).toBeUndefined();
  });
});
