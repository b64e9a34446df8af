import { DelayProxy, SeatClient, GameEvent, Reply } from '@app/bot-kit';
import { closeAll, finishedGames, queryDb, seatRoom, serverBehindProxy, sleep, waitFor } from './support';

// PROTOCOL.md section 14: clocks hold while writes fail. A trivia game of short questions loses
// its database for several question-lengths, refused (a write fails at once) or silent (a write
// goes unanswered past its budget, and is settled once PostgreSQL can be asked again): no question
// closes while nobody can answer, every socket is told the room is paused, and once the database
// is back the room resumes with its clocks moved on by the time they held, recorded in the
// journal. The same question is then answerable, and the game finishes as any other. Time passing
// is read from the server's own clock (its ping replies), never slept on; how long anything took
// is not asserted.

const QUESTION_SECONDS = 2;
const QUESTION_MS = QUESTION_SECONDS * 1000;
/**
 * How long the database stays away once the clocks hold: three question-lengths, or
 * `OUTAGE_SECONDS` when set (`OUTAGE_SECONDS=30 npx jest outage-clocks` is issue 31's 30 s cut
 * and silence, too long to spend on every run of the suite).
 */
const HELD_MS = Number(process.env.OUTAGE_SECONDS ?? 0) * 1000 || 3 * QUESTION_MS;
jest.setTimeout(30_000 + HELD_MS);

describe.each([
  ['refused', (p: DelayProxy) => p.cutAll()],
  ['silent', (p: DelayProxy) => p.blackHole()],
])('when PostgreSQL is %s during a game', (_kind, outage) => {
  const env = serverBehindProxy();

  it('closes no question while nobody can answer, resumes with the same question open, and finishes the game', async () => {
    const { server, proxy, direct } = env;
    // Into a silent link, a reply waits until PostgreSQL can be asked again: longer than the client's usual wait.
    const room = await seatRoom(
      server,
      ['Ann', 'Bob'],
      { questionCount: 3, secondsPerQuestion: QUESTION_SECONDS, revealSeconds: 0.2 },
      { timeoutMs: 60_000 },
    );
    const { host } = room;
    const [ann, bob] = room.players;
    expect((await host.send('room.start')).status).toBe(200);

    // The database goes away while a question is open. Ann answers each question as it opens
    // until her answer's write fails (refused) or goes unanswered past its budget (silent), and
    // the room's clocks stop; on a busy machine a question may close before her answer reaches
    // it, and that answer is refused by the rules at once.
    outage(proxy);
    let open: GameEvent;
    let first: Promise<Reply>;
    for (;;) {
      open = await ann.nextEvent('question.open');
      const id = `ann-${open.data.index}`;
      first = ann.send('room.answer', { question: open.data.index, choice: 0 }, id);
      const late = () => ann.replies.some((r) => r.id === id && r.status === 409);
      await waitFor(() => pausedIn(ann) || late(), 'her answer to be refused or the room to pause', 30_000);
      if (pausedIn(ann)) break;
    }
    const held = open.data.index as number;
    const paused = await ann.nextEvent('room.paused');
    expect(paused.data).toMatchObject({ reason: 'storage' });
    // Every socket of the room is told, whatever its role.
    for (const c of [host, bob]) expect((await c.nextEvent('room.paused')).data).toEqual(paused.data);

    // Several question-lengths pass on the server's clock. Bob answers meanwhile too.
    const bobFirst = bob.send('room.answer', { question: held, choice: 1 }, `bob-${held}`);
    await untilServerTime(ann, paused.data.since + HELD_MS);
    // Nothing of the game moved while the clocks held: no question closed, none opened.
    for (const c of [host, ann, bob])
      expect(typesAfter(c, 'room.paused').filter((t) => t.startsWith('question.') || t.startsWith('game.'))).toEqual([]);

    // The database is back: neither answer was recorded (a silent link's replies come now, late
    // and true), the room's next write records the hold, and the sockets are told.
    proxy.restore();
    const refused = { status: 503, error: { code: 'database_unavailable' } };
    expect([await first, await bobFirst]).toMatchObject([refused, refused]);
    await waitFor(() => ann.events.some((e) => e.type === 'room.resumed'), 'the room to resume', 60_000);
    const resumed = await ann.nextEvent('room.resumed');
    expect(resumed.data.heldMs).toBeGreaterThanOrEqual(HELD_MS);
    // Where the clocks stopped, as the sockets were told last (a write settled as not recorded
    // after a doubt moves it back to when that write was tried).
    const since = ann.events.filter((e) => e.type === 'room.paused' && e.seq < resumed.seq).at(-1)!.data.since as number;
    expect(since).toBeLessThanOrEqual(paused.data.since);
    const state = await ann.nextEvent('room.state', (e) => e.seq > resumed.seq);
    expect(state.data).toMatchObject({ phase: 'question', question: { index: held } });
    expect(state.data.question.closesAt).toBeGreaterThanOrEqual(since + resumed.data.heldMs);
    // The journal records the hold: when the clocks stopped, and for at least as long as the database was away.
    const holdsOf = () =>
      queryDb<{ at: number; ms: number }>(
        direct,
        `SELECT at_ms AS at, (body->>'ms')::float AS ms FROM room_journal WHERE room_id = $1 AND kind = 'clock_held'`,
        [room.roomId],
      );
    expect(await holdsOf()).toEqual([{ at: since, ms: resumed.data.heldMs }]);

    // The same question is answerable: Ann's same id is tried afresh (503 is not remembered).
    expect(await ann.send('room.answer', { question: held, choice: 0 }, `ann-${held}`)).toMatchObject({ status: 200 });
    expect(await bob.send('room.answer', { question: held, choice: 1 }, `bob-${held}`)).toMatchObject({ status: 200 });
    expect((await host.nextEvent('question.closed', (e) => e.data.index === held)).data).toMatchObject({
      index: held,
      counts: expect.any(Array),
    });

    // The game goes on to its end: the rest of the questions open, are answered and close.
    for (let index = held + 1; index < 3; index++) {
      await ann.nextEvent('question.open', (e) => e.data.index === index);
      expect((await ann.send('room.answer', { question: index, choice: 0 })).status).toBe(200);
      expect((await bob.send('room.answer', { question: index, choice: 0 })).status).toBe(200);
    }
    await host.nextEvent('game.finished');
    const closed = host.events.filter((e) => e.type === 'question.closed').map((e) => e.data.index);
    expect(closed).toEqual([0, 1, 2]);
    expect(await finishedGames(direct, room.roomId)).toHaveLength(1);

    // The game's finish snapshotted the room, clocks moved on, and cut its journal: the hold went with it.
    expect(await holdsOf()).toEqual([]);
    closeAll(room);
  });
});

/** The types of the events `c` got after its first event of type `from`. */
function typesAfter(c: SeatClient, from: string): string[] {
  const at = c.events.findIndex((e) => e.type === from);
  return c.events.slice(at + 1).map((e) => e.type);
}

/** `c` was told its room's clocks hold. */
function pausedIn(c: SeatClient): boolean {
  return c.events.some((e) => e.type === 'room.paused');
}

/** Resolves once the server's clock, as its ping replies read it, is at `at` or later (a few pings a second: pings are rate-limited like any command). */
async function untilServerTime(c: SeatClient, at: number): Promise<void> {
  await waitFor(
    async () => {
      await sleep(200);
      const pong = await c.send('ping');
      expect(pong.status).toBe(200);
      return pong.data.serverTime >= at;
    },
    `the server's clock to read ${at}`,
    30_000 + HELD_MS,
  );
}
