import { RunningServer } from '../src/server';
import { RoomsService } from '../../../libs/server/src/rooms/rooms.service';
import { HttpApi } from '@app/bot-kit';
import { withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom, statementsOf } from './support';
import { BUILTIN_DECK_ID } from '../../../migrations';

/**
 * The round-trip budget of DESIGN.md, counted at the pg client: every query any code sends is
 * one round trip, labelled with the named statement (TypeORM's own queries would show as
 * 'typeorm'). Each test asserts the exact list, so a hidden extra query fails it. Every room's
 * write is one statement on its journal: `JournalRepository.append` when it carries commands (or
 * a join), `JournalRepository.record` when the clock or a presence change took the step (a finish,
 * an expiry, a question closed early by a socket leaving); what it carried is read back from
 * `room_journal`.
 */
const APPEND = 'JournalRepository.append';
const RECORD = 'JournalRepository.record';
describe('round-trip budget', () => {
  let server: RunningServer;

  withTestServer((s) => (server = s));

  const counted = (action: () => Promise<unknown>) => statementsOf(server, action);

  it('room.start costs one statement', async () => {
    const room = await seatRoom(server, ['Ann']);
    const trips = await counted(async () => expect((await room.host.send('room.start')).status).toBe(200));
    expect(trips).toEqual([APPEND]);
    closeAll(room);
  });

  it('three answers arriving together are committed in one statement', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy']);
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    const trips = await counted(async () => {
      // Sent in one tick: all three wait in the mailbox together.
      const replies = await Promise.all(room.players.map((p) => p.send('room.answer', { question: 0, choice: 1 })));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    });
    expect(trips).toEqual([APPEND]);
    closeAll(room);
  });

  it('a question closed early by a socket leaving costs one statement off every command path, recorded for recovery', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob']);
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    expect((await room.players[0].send('room.answer', { question: 0, choice: 1 })).status).toBe(200);
    const trips = await counted(async () => {
      // Bob, the last who has not answered, goes: every connected player has answered.
      room.players[1].close();
      await room.host.nextEvent('question.closed');
    });
    expect(trips).toEqual([RECORD]);
    // The presence change that closed it is journaled (a replay cannot know who was connected), last.
    const rows = await queryDb(server, `SELECT kind, body FROM room_journal WHERE room_id = $1 ORDER BY seq DESC, idx DESC LIMIT 1`, [
      room.roomId,
    ]);
    expect(rows).toEqual([{ kind: 'signal', body: { kind: 'presence', seat: room.playerIds[1], connected: false } }]);
    closeAll(room);
  });

  it('answers of different rooms, committing in the same turn, share one statement', async () => {
    // Rooms with nothing in flight all start on the turn's lane, where same-named statements merge.
    const rooms = [await seatRoom(server, ['Ann', 'Bob']), await seatRoom(server, ['Cy', 'Dee'])];
    for (const room of rooms) {
      await room.host.send('room.start');
      await room.host.nextEvent('question.open');
    }
    const trips = await counted(async () => {
      const replies = await Promise.all(
        rooms.flatMap((room) => room.players.map((p) => p.send('room.answer', { question: 0, choice: 0 }))),
      );
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    });
    expect(trips).toEqual([APPEND]);
    for (const room of rooms) {
      const rows = await queryDb(
        server,
        `SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1 AND kind = 'command' AND body->>'type' = 'room.answer'`,
        [room.roomId],
      );
      expect(rows).toEqual([{ n: 2 }]);
      closeAll(room);
    }
  });

  it('closing a question and opening the next cost nothing; finishing the game costs one', async () => {
    const room = await seatRoom(server, ['Ann'], { questionCount: 2, revealSeconds: 0 });
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    const log = server.runtime.meter.capture();
    await room.players[0].send('room.answer', { question: 0, choice: 0 });
    await room.host.nextEvent('question.closed');
    await room.host.nextEvent('question.open', (e) => e.data.index === 1);
    expect(log.names).toEqual([APPEND]);
    await room.players[0].send('room.answer', { question: 1, choice: 0 });
    await room.host.nextEvent('game.finished');
    expect(log.stop()).toEqual([APPEND, APPEND, RECORD]);
    // The finish snapshotted the room, without its deck: the built-in deck is named by the room
    // (its id and content hash), not copied. The same statement cut the journal up to it.
    const [snap] = await queryDb(
      server,
      `SELECT (state->'state') ? 'deck' AS "hasDeck", state->'state'->>'phase' AS phase FROM room_snapshots WHERE room_id = $1`,
      [room.roomId],
    );
    expect(snap).toEqual({ hasDeck: false, phase: 'finished' });
    expect(
      await queryDb(server, `SELECT deck IS NULL AS "noCopy", deck_id AS "deckId", length(deck_hash) AS hash FROM rooms WHERE id = $1`, [
        room.roomId,
      ]),
    ).toEqual([{ noCopy: true, deckId: BUILTIN_DECK_ID, hash: 43 }]);
    expect(await queryDb(server, `SELECT count(*)::int AS n FROM room_journal WHERE room_id = $1`, [room.roomId])).toEqual([{ n: 0 }]);
    closeAll(room);
  });

  it('room.next costs one statement: closing the open question, opening the next, finishing the game', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 2, pace: 'host' });
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    const step = async (until: string) =>
      counted(async () => {
        expect((await room.host.send('room.next')).status).toBe(200);
        await room.host.nextEvent(until);
      });
    // The host closes the open question before anyone answers, then opens the next one.
    expect(await step('question.closed')).toEqual([APPEND]);
    expect(await step('question.open')).toEqual([APPEND]);
    const answers = await counted(async () => {
      const replies = await Promise.all(room.players.map((p) => p.send('room.answer', { question: 1, choice: 0 })));
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      await room.host.nextEvent('question.closed');
    });
    expect(answers).toEqual([APPEND]);
    // After the last reveal, room.next finishes the game: the results go in the same statement.
    expect(await step('game.finished')).toEqual([APPEND]);
    closeAll(room);
  });

  it('rematch votes waiting together cost one statement, the decision included', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 1 });
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    await Promise.all(room.players.map((p) => p.send('room.answer', { question: 0, choice: 0 })));
    await room.host.nextEvent('rematch.open');
    const trips = await counted(async () => {
      const votes = await Promise.all(room.players.map((p, i) => p.send('room.rematch', { vote: i !== 2 })));
      expect(votes.map((v) => v.status)).toEqual([200, 200, 200]);
    });
    expect(trips).toEqual([APPEND]);
    expect((await room.host.nextEvent('rematch.decided')).data.accepted).toBe(true);
    closeAll(room);
  });

  it('room.leave and room.kick cost one statement each', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob']);
    expect(await counted(() => room.players[0].send('room.leave'))).toEqual([APPEND]);
    expect(await counted(() => room.host.send('room.kick', { playerId: room.playerIds[1] }))).toEqual([APPEND]);
    closeAll(room);
  });

  it('a ping costs nothing', async () => {
    const room = await seatRoom(server, ['Ann']);
    const trips = await counted(async () => {
      const pong = await room.players[0].send('ping');
      expect(pong.status).toBe(200);
      expect(typeof pong.data.serverTime).toBe('number');
    });
    expect(trips).toEqual([]);
    closeAll(room);
  });

  it('an idle room sends nothing while a question runs its whole time', async () => {
    const room = await seatRoom(server, ['Ann', 'Bob'], { questionCount: 2, secondsPerQuestion: 2, revealSeconds: 0 });
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');
    // The window is the question's own two seconds: it ends when the room's clock closes it.
    expect(await counted(() => room.host.nextEvent('question.closed'))).toEqual([]);
    // Closed at once, so that its clock writes nothing while the next tests count.
    const closed = await fetch(`${server.url}/api/rooms/${room.code}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${room.hostToken}` },
    });
    expect(closed.status).toBe(204);
    closeAll(room);
  });

  describe('in the lobby', () => {
    let expiring: RunningServer;
    withTestServer((s) => (expiring = s), { roomExpirySeconds: 3 });

    it('an idle lobby sends nothing until its expiry closes it', async () => {
      const room = await seatRoom(expiring, ['Ann', 'Bob']);
      const log = expiring.runtime.meter.capture();
      // The window ends with the room's own expiry, seconds after it opened.
      expect((await room.host.nextEvent('room.closed')).data).toEqual({ reason: 'expired' });
      const trips = log.stop();
      // The expiry itself: one statement that closes the room.
      expect(trips).toEqual([RECORD]);
      closeAll(room);
    });
  });

  it('rooms activating in the same moment are loaded with one statement', async () => {
    const api = new HttpApi(server.url);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await api.createRoom({ hostName: `H${i}` })).code);
    const rooms = server.app.get(RoomsService);
    const trips = await counted(async () => {
      const live = await Promise.all(codes.map((c) => rooms.registry.get(c)));
      expect(live.map((r) => r?.code)).toEqual(codes);
    });
    expect(trips).toEqual(['RoomRepository.loadRooms']);
    // Once live, a room costs nothing to find again.
    expect(await counted(() => Promise.all(codes.map((c) => rooms.registry.get(c))))).toEqual([]);
  });

  it('a join to a room that is not live costs one load and one append, nothing else', async () => {
    const api = new HttpApi(server.url);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push((await api.createRoom({ hostName: `B${i}` })).code);
    const trips = await counted(() => Promise.all(codes.map((c) => api.join(c, 'Zed'))));
    // Over HTTP the joins may arrive in separate turns; each costs at most one (shared) load.
    expect(trips.filter((t) => t === 'RoomRepository.loadRooms').length).toBeLessThanOrEqual(4);
    // Joins committing in the same turn share an append.
    const appends = trips.filter((t) => t === APPEND).length;
    expect(appends).toBeGreaterThanOrEqual(1);
    expect(appends).toBeLessThanOrEqual(4);
    expect(trips.filter((t) => t !== 'RoomRepository.loadRooms' && t !== APPEND)).toEqual([]);
    const joined = await queryDb(
      server,
      `SELECT count(*)::int AS n FROM room_journal j JOIN rooms r ON r.id = j.room_id WHERE r.code = ANY($1) AND j.kind = 'proposal'`,
      [codes],
    );
    expect(joined).toEqual([{ n: 4 }]);
  });
});
