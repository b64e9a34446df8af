import { SeatClient, HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { closeAll, holdTable, journaledIds, queryDb, seatRoom, SeatedRoom, untilWaitingOnLock, waitFor } from './support';

/**
 * Pipelined commits against a real PostgreSQL: a room's next statement leaves while the one ahead
 * of it is still in flight (the lock held on `room_journal` keeps the first one there), on the room's
 * ordered path; replies and events are released in commit order, and when a statement fails,
 * nothing decided after it is confirmed, and the room is again what the database has.
 */
describe('pipelined commits', () => {
  let server: RunningServer;
  // Holds table locks on purpose: a held lock must not run into the command budget, which is for outages.
  withTestServer((s) => (server = s), { commandTimeoutMs: 60_000 });

  const admin = () => new HttpApi(server.url);
  async function inFlight(code: string): Promise<number> {
    const res = await admin().request('GET', `/admin/api/rooms/${code}`, undefined, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
    return res.body?.statementsInFlight;
  }
  async function untilInFlight(code: string, n: number): Promise<void> {
    await waitFor(async () => (await inFlight(code)) === n, `${n} statement(s) of room ${code} in flight`);
  }
  async function answersOf(room: SeatedRoom): Promise<{ command_id: string }[]> {
    return (await journaledIds(server, room.roomId, 'room.answer')).map((command_id) => ({ command_id }));
  }
  async function commitSeq(room: SeatedRoom): Promise<number> {
    const [row] = await queryDb<{ n: number }>(server, 'SELECT commit_seq::int AS n FROM room_heads WHERE room_id = $1', [room.roomId]);
    return row.n;
  }
  async function started(names: string[]): Promise<SeatedRoom> {
    const room = await seatRoom(server, names);
    await room.host.send('room.start');
    await room.host.nextEvent('question.open');
    return room;
  }

  beforeAll(async () => {
    // A real statement that fails on PostgreSQL's side, for answers whose command id says so.
    await queryDb(
      server,
      `CREATE FUNCTION fail_marked_answers() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.command_id LIKE 'fail-%' THEN RAISE EXCEPTION 'this answer was marked to fail'; END IF; RETURN NEW; END $$;
       CREATE TRIGGER fail_marked_answers BEFORE INSERT ON room_journal FOR EACH ROW EXECUTE FUNCTION fail_marked_answers();`,
    );
  });

  it('sends the next statement while the first is in flight, and confirms both in commit order', async () => {
    const room = await started(['Ann', 'Bob', 'Cy']);
    const [ann, bob] = room.players;
    const release = await holdTable(server, 'room_journal');
    const first = ann.send('room.answer', { question: 0, choice: 0 }, 'ann-1');
    await untilWaitingOnLock(server, 'room_journal');
    const second = bob.send('room.answer', { question: 0, choice: 1 }, 'bob-1');
    // Bob's statement is on its way behind Ann's, not waiting in the mailbox for it.
    await untilInFlight(room.code, 2);
    await release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    // The host heard of them in commit order: one answered, then two. (The host's socket is not
    // the players': its frames can be read after their replies, so wait until both are in.)
    const progress = () => room.host.events.filter((e) => e.type === 'question.progress').map((e) => e.data.answered);
    await waitFor(async () => progress().length >= 2, 'the host to hear of both answers');
    expect(progress()).toEqual([1, 2]);
    expect(await answersOf(room)).toEqual([{ command_id: 'ann-1' }, { command_id: 'bob-1' }]);
    expect(await inFlight(room.code)).toBe(0);
    closeAll(room);
  });

  it('releases a reply decided behind a statement in flight only after that statement commits', async () => {
    const room = await started(['Ann', 'Bob']);
    const [ann] = room.players;
    const release = await holdTable(server, 'room_journal');
    const answer = ann.send('room.answer', { question: 0, choice: 0 }, 'ann-a');
    await untilWaitingOnLock(server, 'room_journal');
    // Accepted by the state PostgreSQL has, refused by the one in flight: decided behind it.
    const again = ann.send('room.answer', { question: 0, choice: 1 }, 'ann-b');
    await release();
    const [a, b] = [await answer, await again];
    expect(a.status).toBe(200);
    expect(b.status).toBe(409);
    const replies = ann.decoded.filter((f) => f.type === 'reply').map((f) => (f as { id: string }).id);
    expect(replies.indexOf('ann-a')).toBeLessThan(replies.indexOf('ann-b'));
    closeAll(room);
  });

  it('confirms nothing decided after a failed statement: both get 503, nothing is recorded, and the room is what the database has', async () => {
    const room = await started(['Ann', 'Bob', 'Cy']);
    const [ann, bob] = room.players;
    const seqBefore = await commitSeq(room);
    const release = await holdTable(server, 'room_journal');
    const failing = ann.send('room.answer', { question: 0, choice: 0 }, 'fail-ann');
    await untilWaitingOnLock(server, 'room_journal');
    const behind = bob.send('room.answer', { question: 0, choice: 1 }, 'bob-behind');
    await untilInFlight(room.code, 2);
    await release();
    const [f, b] = [await failing, await behind];
    expect(f).toMatchObject({ status: 503, error: { code: 'database_unavailable' } });
    expect(b).toMatchObject({ status: 503, error: { code: 'database_unavailable' } });
    expect(await answersOf(room)).toEqual([]);
    expect(await commitSeq(room)).toBe(seqBefore);
    // Nobody heard of either answer.
    expect(room.host.events.filter((e) => e.type === 'question.progress')).toEqual([]);
    // The room is where the database is: both may answer again, and Bob's id is tried afresh.
    expect((await bob.send('room.answer', { question: 0, choice: 1 }, 'bob-behind')).status).toBe(200);
    expect((await ann.send('room.answer', { question: 0, choice: 0 }, 'ann-retry')).status).toBe(200);
    expect(await answersOf(room)).toEqual([{ command_id: 'ann-retry' }, { command_id: 'bob-behind' }]);
    expect(await commitSeq(room)).toBe(seqBefore + 2);
    closeAll(room);
  });

  it('lets a room go when the database holds another history of it, and loads it again on the next connection', async () => {
    const room = await started(['Ann', 'Bob']);
    const [ann] = room.players;
    // Another writer moved the room on (what a statement whose answer was lost would do).
    await queryDb(server, 'UPDATE room_heads SET commit_seq = commit_seq + 1 WHERE room_id = $1', [room.roomId]);
    const refused = await ann.send('room.answer', { question: 0, choice: 0 }, 'ann-stale');
    expect(refused).toMatchObject({ status: 503, error: { code: 'database_unavailable' } });
    for (const c of [room.host, ...room.players]) expect((await c.waitClosed()).code).toBe(1012);
    expect(await answersOf(room)).toEqual([]);
    // Reconnecting loads the room from the database, where it was: on question 0, nobody answered.
    const again = await SeatClient.connect(server.url, room.playerTokens[0]);
    const state = await again.nextEvent('room.state');
    expect(state.data).toMatchObject({ phase: 'question' });
    expect((await again.send('room.answer', { question: 0, choice: 0 }, 'ann-stale')).status).toBe(200);
    expect(await answersOf(room)).toEqual([{ command_id: 'ann-stale' }]);
    again.close();
  });
});
