import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { RoomsService } from '../../../libs/server/src/rooms/rooms.service';
import { createTestDatabase } from '../../../test/support/database';
import { startTestServer } from '../../../test/support/test-server';
import { closeAll, finishedGames, journaledIds, queryDb, seatRoom, SeatedRoom, waitFor } from './support';

/**
 * Room ownership by lease with fencing (PROTOCOL.md section 10), with two real instances on one
 * real PostgreSQL: a room is live on the instance that holds its lease; another instance is
 * refused it while the lease holds; an instance that lost the lease has its writes refused by the
 * database (fencing) and lets the room go, and so does one whose heartbeat did not renew it.
 */
describe('room leases', () => {
  let databaseUrl: string;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    // A beats (and renews) every 100 ms; B does not beat on a timer: it only takes what is free.
    a = await startTestServer({ databaseUrl, instanceName: 'a', heartbeatMs: 100, leaseMs: 2000 });
    b = await startTestServer({ databaseUrl, instanceName: 'b', leaseMs: 2000 });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  const lease = async (room: SeatedRoom) =>
    (
      await queryDb<{ owner: string; fence: number }>(
        { databaseUrl },
        'SELECT lease_owner AS owner, lease_fence::int AS fence FROM room_heads WHERE room_id = $1',
        [room.roomId],
      )
    )[0];
  const answers = async (room: SeatedRoom) =>
    (await journaledIds({ databaseUrl }, room.roomId, 'room.answer')).map((command_id) => ({ command_id }));
  // The owner's lease runs out: its registry row says it has not beaten for an hour.
  const expire = (room: SeatedRoom) =>
    queryDb(
      { databaseUrl },
      `UPDATE instances SET last_seen = now() - interval '1 hour' WHERE name = (SELECT lease_owner FROM room_heads WHERE room_id = $1)`,
      [room.roomId],
    );
  async function started(server: RunningServer, names: string[]): Promise<SeatedRoom> {
    const room = await seatRoom(server, names);
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    return room;
  }

  it('takes the lease in the statement that loads the room, and refuses the room to another instance while it holds', async () => {
    // Two rooms, each asked of B once: a refusal also asks for the room (the handoff below), and
    // A's next beat, 100 ms on, would hand it over, so a second request could find it moving.
    const room = await started(a, ['Ann']);
    const other = await started(a, ['Bob']);
    expect(await lease(room)).toMatchObject({ owner: 'a' });
    const res = await fetch(`${b.url}/api/rooms/${room.code}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { code: string }).code).toBe('room_elsewhere');
    // A socket that reaches the wrong instance is refused before it exists, told when to retry.
    expect(await lease(other)).toMatchObject({ owner: 'a' });
    await expect(SeatClient.connect(b.url, other.playerTokens[0])).rejects.toMatchObject({ status: 503, retryAfterSeconds: 1 });
    closeAll(room);
    closeAll(other);
  });

  it('hands a room to the instance that asked for it (where the proxy sends its traffic now) at the holder’s next beat', async () => {
    const room = await started(a, ['Ann']);
    expect(await lease(room)).toMatchObject({ owner: 'a' });
    // B is refused the room and asks for it: A's next beat gives the lease up and lets the room go.
    expect((await new HttpApi(b.url).request('GET', `/api/rooms/${room.code}`)).status).toBe(503);
    for (const c of [room.host, ...room.players]) expect((await c.waitClosed()).code).toBe(1012);
    await waitFor(() => !a.app.get(RoomsService).registry.peek(room.code), 'A to let the room go');
    expect(await lease(room)).toMatchObject({ owner: null });
    // The clients reconnect to B (through the proxy, in a cluster), which takes it with the next fence.
    const before = await lease(room);
    const ann = await SeatClient.connect(b.url, room.playerTokens[0]);
    await ann.nextEvent('room.state');
    expect(await lease(room)).toEqual({ owner: 'b', fence: before.fence + 1 });
    expect((await ann.send('room.answer', { question: 0, choice: 0 }, 'ann-after-handoff')).status).toBe(200);
    expect(await answers(room)).toEqual([{ command_id: 'ann-after-handoff' }]);
    ann.close();
  });

  it('refuses a stale owner’s write by its fencing number: the room is let go, and its owner serves it', async () => {
    const room = await started(b, ['Ann', 'Bob']);
    const before = await lease(room);
    expect(before.owner).toBe('b');
    expect((await room.players[0].send('room.answer', { question: 0, choice: 0 }, 'ann-on-b')).status).toBe(200);
    // B's lease runs out (it beats only at start and stop); A takes the room, with the next fencing number.
    await expire(room);
    expect((await new HttpApi(a.url).request('GET', `/api/rooms/${room.code}`)).status).toBe(200);
    expect(await lease(room)).toEqual({ owner: 'a', fence: before.fence + 1 });
    // B still has the room in memory: its write carries the old fence and is refused.
    const stale = await room.players[1].send('room.answer', { question: 0, choice: 1 }, 'bob-on-b');
    expect(stale).toMatchObject({ status: 503, error: { code: 'database_unavailable' } });
    for (const c of [room.host, ...room.players]) expect((await c.waitClosed()).code).toBe(1012);
    expect(await answers(room)).toEqual([{ command_id: 'ann-on-b' }]);
    // Reconnected to the owner: the game goes on where it was, the acknowledged answer kept.
    const bob = await SeatClient.connect(a.url, room.playerTokens[1]);
    await bob.nextEvent('room.state');
    expect((await bob.send('room.answer', { question: 0, choice: 1 }, 'bob-on-b')).status).toBe(200);
    const ann = await SeatClient.connect(a.url, room.playerTokens[0]);
    await ann.nextEvent('room.state');
    // Ann's answer was acknowledged on B: its id gets the original reply, not a second answer.
    expect((await ann.send('room.answer', { question: 0, choice: 0 }, 'ann-on-b')).status).toBe(200);
    expect(await answers(room)).toEqual([{ command_id: 'ann-on-b' }, { command_id: 'bob-on-b' }]);
    bob.close();
    ann.close();
  });

  it('lets a room go at the first beat that finds its lease taken, without waiting for a write', async () => {
    const room = await started(a, ['Ann']);
    // B took the room (what it does once A's lease has run out: A was frozen or cut off).
    await queryDb({ databaseUrl }, `UPDATE room_heads SET lease_owner = 'b', lease_fence = lease_fence + 1 WHERE room_id = $1`, [
      room.roomId,
    ]);
    for (const c of [room.host, ...room.players]) expect((await c.waitClosed()).code).toBe(1012);
    expect((await new HttpApi(b.url).request('GET', `/api/rooms/${room.code}`)).status).toBe(200);
    await waitFor(() => !a.app.get(RoomsService).registry.peek(room.code), 'A to let the room go');
    expect(await lease(room)).toMatchObject({ owner: 'b' });
  });

  it('releases its leases when it drains, so that another instance takes the rooms at once', async () => {
    const c = await startTestServer({ databaseUrl, instanceName: 'c', leaseMs: 60_000 });
    const room = await started(c, ['Ann']);
    expect(await lease(room)).toMatchObject({ owner: 'c' });
    await c.stop();
    expect(await lease(room)).toMatchObject({ owner: null });
    expect((await new HttpApi(b.url).request('GET', `/api/rooms/${room.code}`)).status).toBe(200);
    expect(await lease(room)).toMatchObject({ owner: 'b' });
  });

  it('loses nothing in a rolling restart: each instance drains in turn, the game goes on at the other, every acknowledged answer kept', async () => {
    let first = await startTestServer({ databaseUrl, instanceName: 'roll-1', leaseMs: 60_000 });
    const second = await startTestServer({ databaseUrl, instanceName: 'roll-2', leaseMs: 60_000 });
    const room = await seatRoom(first, ['Ann', 'Bob'], { questionCount: 3, secondsPerQuestion: 30, revealSeconds: 0 });
    expect((await room.host.send('room.start')).status).toBe(200);
    const acked: [string, number, number][] = [];
    /** Every seat reconnects to `server` with its token (what the proxy does once the old owner is out) and answers `question`. */
    async function answerOn(server: RunningServer, question: number, clients: SeatClient[]): Promise<SeatClient[]> {
      const seats: SeatClient[] = [];
      for (const token of room.playerTokens) {
        const c = await SeatClient.connect(server.url, token);
        const state = await c.nextEvent('room.state');
        expect(state.data).toMatchObject({ phase: 'question', question: { index: question } });
        seats.push(c);
      }
      for (const [i, c] of seats.entries()) {
        expect((await c.send('room.answer', { question, choice: i % 2 }, `roll-q${question}-${i}`)).status).toBe(200);
        acked.push([room.playerIds[i], question, i % 2]);
      }
      for (const c of clients) c.close();
      return seats;
    }
    await room.players[0].nextEvent('question.open');
    let seats = await answerOn(first, 0, room.players);
    room.host.close();
    // roll-1 drains (SIGTERM's path): its sockets close with 1001 and its leases are released at once.
    await first.stop();
    for (const c of seats) expect((await c.waitClosed()).code).toBe(1001);
    seats = await answerOn(second, 1, []);
    first = await startTestServer({ databaseUrl, instanceName: 'roll-1', leaseMs: 60_000 });
    await second.stop();
    for (const c of seats) expect((await c.waitClosed()).code).toBe(1001);
    seats = await answerOn(first, 2, []);
    // The last answer finished the game: its record holds every answer (the journal went with the finish).
    await seats[0].nextEvent('game.finished');
    const [record] = await finishedGames({ databaseUrl }, room.roomId);
    const recorded = record.questions.flatMap((q: any) => q.answers.map((a: any) => [a.playerId, q.index, a.choice]));
    expect(recorded.sort()).toEqual([...acked].sort());
    for (const c of seats) c.close();
    await first.stop();
  });
});
