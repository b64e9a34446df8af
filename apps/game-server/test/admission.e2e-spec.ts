import { ChildProcess, spawn } from 'node:child_process';
import { DelayProxy, SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { createTestDatabase } from '../../../test/support/database';
import { ServerProcess } from '../../../test/support/server-process';
import { startTestServer, TEST_ADMIN_TOKEN } from '../../../test/support/test-server';
import { closeAll, journaledIds, queryDb, seatRoom, sleep } from './support';

// Admission control (PROTOCOL.md section 14), proved from outside: a real server process is
// starved of its CPU the way a cgroup's quota or a noisy neighbour starves one, stopped and let go
// in turn (SIGSTOP 300 ms, SIGCONT 50 ms) by a process of its own, so that the server's own
// event-loop delay measurement sees it. New work is refused with 503 `overloaded` while the room
// already playing goes on; once the thief stops, new work is admitted again.

/** The server's mark for event-loop delay in this test: far above an idle loop, far below a starved one. */
const EVENT_LOOP_MARK_MS = 100;
/** Every wait on the starved server: long, because a starved machine is slow, and never a guess at a duration. */
const WAIT_MS = 60_000;
/** A test's own limit: its set-up and two waits at most. */
const TEST_MS = 3 * WAIT_MS;

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { statusCode?: number; code?: string; message?: string };
}

/**
 * A process that takes the server's CPU away: SIGSTOP for `stopMs`, SIGCONT for `runMs`, over and
 * over. On SIGTERM it lets the server run and exits. Its own process, so that what this test's
 * event loop does cannot shorten the starvation.
 */
const THIEF = `
const [pid, stopMs, runMs] = process.argv.slice(-3).map(Number);
const run = () => process.kill(pid, 'SIGCONT');
process.on('SIGTERM', () => { run(); process.exit(0); });
(function stop() {
  process.kill(pid, 'SIGSTOP');
  setTimeout(() => { run(); setTimeout(stop, runMs); }, stopMs);
})();
`;

class CpuThief {
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    process.once('exit', () => child.kill('SIGKILL'));
  }

  static start(server: ServerProcess, stopMs: number, runMs: number): CpuThief {
    return new CpuThief(spawn(process.execPath, ['-e', THIEF, String(server.pid), String(stopMs), String(runMs)], { stdio: 'ignore' }));
  }

  /** Stops stealing; the server runs again once this resolves. */
  async stop(server: ServerProcess): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
    // Whatever the thief did last, the server runs.
    if (server.isRunning) server.suspend('SIGCONT');
  }
}

/**
 * A built server process for one describe block, handed to `use` once started, with `env` beside
 * what every test of starvation needs: commit and pool waits off, so that only the event loop
 * decides and the refusals are all of one reason; a command's budget (issue 31's other half) long
 * enough that the room's answer is decided by admission alone, not by a budget spent while the
 * process was stopped; and opens limited by overload only, not by the rate of one address.
 */
function withStarvableServer(env: Record<string, string>, use: (server: ServerProcess) => void): void {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await ServerProcess.create({
      env: { OVERLOAD_COMMIT_WAIT_MS: '0', OVERLOAD_POOL_WAIT_MS: '0', COMMAND_TIMEOUT_MS: '20000', OPEN_RATE_PER_MINUTE: '0', ...env },
    });
    await server.start();
    use(server);
  });
  afterAll(async () => {
    await server?.dispose();
  });
}

/** The console's overview of `server`, as an operator's bearer token reads it. */
const overviewOf = async (server: { url: string; adminToken: string }) =>
  (await new HttpApi(server.url).request('GET', '/admin/api/overview', undefined, { authorization: `Bearer ${server.adminToken}` })).body;
const refusalsOf = async (server: { url: string }, limit: string) =>
  (await MetricsSnapshot.fetch(server.url)).value('game_limit_refusals_total', { limit });
/** A room whose first question stays open for five minutes. */
const ROOM = { hostName: 'Host', questionCount: 3, secondsPerQuestion: 300, revealSeconds: 0 };

describe('admission control on a real server process starved of its CPU', () => {
  let server: ServerProcess;
  // Only the event loop decides here: the refusals are then all of one reason.
  withStarvableServer({ OVERLOAD_EVENT_LOOP_DELAY_MS: String(EVENT_LOOP_MARK_MS) }, (s) => (server = s));

  const post = (path: string, body: unknown) => postTo(server, path, body);
  const get = (path: string) => getFrom(server, path);
  const overview = () => overviewOf(server);
  const refusals = (limit: string) => refusalsOf(server, limit);

  function expectOverloaded(a: Answer): void {
    expect(a).toMatchObject({ status: 503, retryAfter: '2', body: { statusCode: 503, code: 'overloaded' } });
    expect(a.body.message).toMatch(/^this server is overloaded \(event-loop delay \d+ ms, its mark 100 ms\)/);
  }

  it(
    'refuses new work with 503 overloaded and Retry-After while starved, serves the room already playing, and admits again after',
    () =>
      server.explainFailure(async () => {
        // A room already playing: a question open for five minutes, Ann yet to answer it.
        const playing = await seatRoom(server, ['Ann', 'Bob'], ROOM);
        expect((await playing.host.send('room.start', {}, 'host-start')).status).toBe(200);
        await playing.host.nextEvent('question.open', (e) => e.data.index === 0);
        // Rooms opened and never used: they are not live on this instance. Two, because requests
        // for one room's activation made together share one activation, and so one refusal.
        const resting = await new HttpApi(server.url).createRoom(ROOM);
        const restingToo = await new HttpApi(server.url).createRoom(ROOM);
        expect((await overview()).admission).toMatchObject({ shedding: false, cause: null, refused: 0 });
        const opened = await roomRows(server);

        let refused = 0;
        let admitted = 0;
        const thief = CpuThief.start(server, 300, 50);
        try {
          // The server sheds once its delay has held the mark through most of a second; opens sent
          // before that are served.
          const deadline = performance.now() + WAIT_MS;
          let open: Answer;
          for (;;) {
            open = await post('/api/rooms', ROOM);
            if (open.status !== 201) break;
            admitted++;
            if (performance.now() > deadline) throw new Error(`no open was refused within ${WAIT_MS} ms of starvation`);
            await sleep(100);
          }
          refused++;
          expectOverloaded(open);

          // Still starved: the room already playing goes on (a new socket of a live room is not new
          // work, and Ann's answer is recorded), while all that would create work is refused.
          const ann = await SeatClient.connect(server.url, playing.playerTokens[0], { timeoutMs: WAIT_MS });
          const [answer, join, spectate, table, summary, socket, during] = await Promise.all([
            ann.send('room.answer', { question: 0, choice: 1 }, 'ann-q0'),
            post(`/api/rooms/${playing.code}/players`, { name: 'Cy' }),
            post(`/api/rooms/${playing.code}/spectators`, {}),
            post('/api/tables', { name: 'Dee' }),
            // Loading a room that is not live here is new work too, whoever asks.
            get(`/api/rooms/${resting.code}`),
            SeatClient.connect(server.url, restingToo.hostToken).then(
              (c) => (c.close(), { status: 101, retryAfterSeconds: undefined }),
              (err: { status?: number; retryAfterSeconds?: number }) => err,
            ),
            overview(),
          ]);
          expect(answer).toMatchObject({ id: 'ann-q0', status: 200 });
          for (const refusal of [join, spectate, table, summary]) expectOverloaded(refusal);
          // The socket of a room not live here is refused at the upgrade, before it exists.
          expect(socket).toMatchObject({ status: 503, retryAfterSeconds: 2 });
          refused += 5;
          expect(during.admission).toMatchObject({ shedding: true, cause: 'event_loop_delay' });
          expect(during.admission.since).toEqual(expect.any(Number));
          expect(during.admission.signals.find((s: { signal: string }) => s.signal === 'event_loop_delay')).toMatchObject({
            markMs: 100,
            admitBelowMs: 50,
          });
          // The gate of new anonymous work is off on this server (its mark 0), and so sheds nothing even starved.
          expect(during.admission.anonymous).toEqual({ shedding: false, since: null, markMs: 0, admitBelowMs: 0, refused: 0 });
          ann.close();
        } finally {
          await thief.stop(server);
        }

        // With its CPU back, the server admits again once its delay has stayed below half the mark.
        const deadline = performance.now() + WAIT_MS;
        for (;;) {
          const open = await post('/api/rooms', ROOM);
          if (open.status === 201) break;
          expectOverloaded(open);
          refused++;
          if (performance.now() > deadline) throw new Error(`opens were still refused ${WAIT_MS} ms after the starvation ended`);
          await sleep(100);
        }
        admitted++;

        // Each refusal was counted once, by its reason; what was refused wrote nothing.
        expect(await refusals('overload_event_loop_delay')).toBe(refused);
        expect(await refusals('overload_commit_wait')).toBe(0);
        expect(await refusals('overload_pool_wait')).toBe(0);
        expect(await roomRows(server)).toBe(opened + admitted);
        const after = (await overview()).admission;
        expect(after).toMatchObject({ shedding: false, cause: null, since: null, refused });
        // The room that was playing still is, with Ann's answer and nobody new.
        const detail = (
          await new HttpApi(server.url).request('GET', `/admin/api/rooms/${playing.code}`, undefined, {
            authorization: `Bearer ${server.adminToken}`,
          })
        ).body;
        expect(detail).toMatchObject({ phase: 'question', openQuestion: { index: 0 } });
        expect(detail.players.map((p: { name: string }) => p.name)).toEqual(['Ann', 'Bob']);
        expect(await journaledIds(server, playing.roomId, 'room.answer')).toEqual(['ann-q0']);
        closeAll(playing);
      }),
    TEST_MS,
  );
});

/**
 * Sends from `workers` clients, each sending its next as soon as its last is answered, until one
 * is refused: every refusal that came back, and how many were admitted. The clients start
 * `staggerMs` apart, so that their answers arrive in a steady stream, as many clients' would.
 */
async function untilRefused(
  workers: number,
  staggerMs: number,
  send: (worker: number) => Promise<Answer>,
): Promise<{ refused: Answer[]; admitted: number }> {
  const refused: Answer[] = [];
  let admitted = 0;
  const deadline = performance.now() + WAIT_MS;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      await sleep(worker * staggerMs);
      while (refused.length === 0) {
        if (performance.now() > deadline) throw new Error(`nothing was refused within ${WAIT_MS} ms`);
        const answer = await send(worker);
        if (answer.status === 201) admitted++;
        else refused.push(answer);
      }
    }),
  );
  return { refused, admitted };
}

/** Sends until one is admitted; the refusals met on the way. */
async function untilAdmitted(send: (worker: number) => Promise<Answer>): Promise<Answer[]> {
  const refusals: Answer[] = [];
  const deadline = performance.now() + WAIT_MS;
  for (;;) {
    const answer = await send(0);
    if (answer.status === 201) return refusals;
    refusals.push(answer);
    if (performance.now() > deadline) throw new Error(`still refused ${WAIT_MS} ms after the load ended`);
    await sleep(100);
  }
}

const roomRows = async (server: Pick<RunningServer, 'databaseUrl'>) =>
  (await queryDb<{ n: number }>(server, 'SELECT count(*)::int AS n FROM rooms'))[0].n;

async function postTo(server: { url: string }, path: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

async function getFrom(server: { url: string }, path: string): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

/**
 * The mark for new anonymous work in its test: far above an idle loop (and a busy test machine's),
 * far below a starved one. The default is lower; what is tested is that the mark, not the main
 * gate, refuses anonymous work and nothing else.
 */
const ANONYMOUS_MARK_MS = 100;

describe('new anonymous work shed at its own low event-loop mark, on a real server process starved of its CPU', () => {
  let server: ServerProcess;
  // The main gate is off: whatever is refused here is refused at the low mark alone, and what that
  // mark does not cover (a socket for a room not live here) must get through.
  withStarvableServer(
    { OVERLOAD_ANONYMOUS_EVENT_LOOP_DELAY_MS: String(ANONYMOUS_MARK_MS), OVERLOAD_EVENT_LOOP_DELAY_MS: '0' },
    (s) => (server = s),
  );

  const refusals = (limit: string) => refusalsOf(server, limit);
  const overview = () => overviewOf(server);
  const DECK = { name: 'Capitals', questions: [{ text: 'Capital of France?', choices: ['Paris', 'Lyon'], correct: 0 }] };
  const open = () => postTo(server, '/api/rooms', ROOM);
  const deckRows = async () => (await queryDb<{ n: number }>(server, 'SELECT count(*)::int AS n FROM decks'))[0].n;

  function expectBusy(a: Answer): void {
    expect(a).toMatchObject({ status: 503, retryAfter: '2', body: { statusCode: 503, code: 'overloaded' } });
    expect(a.body.message).toMatch(
      new RegExp(`^this server is busy \\(event-loop delay \\d+ ms, its mark for new anonymous work ${ANONYMOUS_MARK_MS} ms\\)`),
    );
  }

  it(
    'refuses openings, joins, deck writes, lookups and spectator seats while the loop runs late, and nothing else',
    () =>
      server.explainFailure(async () => {
        const playing = await seatRoom(server, ['Ann'], ROOM);
        expect((await playing.host.send('room.start', {}, 'host-start')).status).toBe(200);
        await playing.host.nextEvent('question.open', (e) => e.data.index === 0);
        // This room was opened and never used, so it is not live here and a socket for it needs an activation.
        const resting = await new HttpApi(server.url).createRoom(ROOM);
        const opened = await roomRows(server);
        const decks = await deckRows();
        // The console shows the gate with its marks, admitting; the main gate's event-loop mark is off.
        const before = await overview();
        expect(before.admission.anonymous).toEqual({
          shedding: false,
          since: null,
          markMs: ANONYMOUS_MARK_MS,
          admitBelowMs: 50,
          refused: 0,
        });
        expect(before.admission.signals.find((s: { signal: string }) => s.signal === 'event_loop_delay')).toMatchObject({ markMs: 0 });

        let refused = 0;
        let admitted = 0;
        const thief = CpuThief.start(server, 300, 50);
        try {
          // Opens sent before the level has held the mark through most of a second are served.
          const first = await untilRefused(1, 0, open);
          for (const refusal of first.refused) expectBusy(refusal);
          refused += first.refused.length;
          admitted += first.admitted;

          const ann = await SeatClient.connect(server.url, playing.playerTokens[0], { timeoutMs: WAIT_MS });
          const [answer, anonymous, socket, during] = await Promise.all([
            ann.send('room.answer', { question: 0, choice: 1 }, 'ann-q0'),
            Promise.all([
              postTo(server, `/api/rooms/${playing.code}/players`, { name: 'Cy' }),
              postTo(server, `/api/rooms/${playing.code}/spectators`, {}),
              postTo(server, '/api/tables', { name: 'Dee' }),
              postTo(server, '/api/decks', DECK),
              // A lookup is new work even for a room live here.
              getFrom(server, `/api/rooms/${playing.code}`),
            ]),
            // A room's own seat is not anonymous: its socket is served, though its room must be loaded.
            SeatClient.connect(server.url, resting.hostToken, { timeoutMs: WAIT_MS }).then(
              (c) => (c.close(), { status: 101 }),
              (err: { status?: number }) => err,
            ),
            // An operator's view is not anonymous work: the console shows the gate shedding.
            overview(),
          ]);
          expect(answer).toMatchObject({ id: 'ann-q0', status: 200 });
          for (const refusal of anonymous) expectBusy(refusal);
          refused += anonymous.length;
          expect(socket).toMatchObject({ status: 101 });
          expect(during.admission.anonymous).toMatchObject({ shedding: true, markMs: ANONYMOUS_MARK_MS, admitBelowMs: 50 });
          // The shedding started after the console saw the gate admitting, by the server's own clock.
          expect(during.admission.anonymous.since).toBeGreaterThanOrEqual(before.serverTime);
          expect(during.admission.anonymous.since).toBeLessThanOrEqual(during.serverTime);
          expect(during.admission).toMatchObject({ shedding: false, refused: 0 });
          ann.close();
        } finally {
          await thief.stop(server);
        }

        // With its CPU back, the server admits again once the level has stayed below half the mark.
        const after = await untilAdmitted(open);
        for (const refusal of after) expectBusy(refusal);
        refused += after.length;
        admitted++;

        // Each refusal was counted once, under its own limit. The main gate refused nothing, and nothing refused was written.
        expect(await refusals('overload_anonymous_event_loop_delay')).toBe(refused);
        expect(await refusals('overload_event_loop_delay')).toBe(0);
        // The console counts the same refusals as the gate's own, none as the main gate's, and shows it admitting again.
        const shown = (await overview()).admission;
        expect(shown.anonymous).toEqual({ shedding: false, since: null, markMs: ANONYMOUS_MARK_MS, admitBelowMs: 50, refused });
        expect(shown.refused).toBe(0);
        expect(await roomRows(server)).toBe(opened + admitted);
        expect(await deckRows()).toBe(decks);
        expect(await journaledIds(server, playing.roomId, 'room.answer')).toEqual(['ann-q0']);
        closeAll(playing);
      }),
    TEST_MS,
  );
});

/**
 * The database 300 ms away through a delay proxy (the link next door while rooms are set up), and
 * an in-process server whose only overload signal is `signal`, at `markMs`.
 */
/** Clients sending at once in the tests of waits. */
const CLIENTS = 8;

describe.each([
  { signal: 'commit_wait', words: 'commit wait', markMs: 150, config: { overloadCommitWaitMs: 150, overloadPoolWaitMs: 0 } },
  // Three pooled connections for more clients: each statement over the far link holds one a round trip, and the next waits.
  { signal: 'pool_wait', words: 'pool wait', markMs: 150, config: { overloadCommitWaitMs: 0, overloadPoolWaitMs: 150, poolMax: 3 } },
] as const)('admission control by $words, the database far away', ({ signal, words, markMs, config }) => {
  let server: RunningServer;
  let link: DelayProxy;

  beforeAll(async () => {
    const url = new URL(await createTestDatabase());
    link = new DelayProxy({ host: url.hostname, port: Number(url.port) }, 0);
    await link.start();
    // A command has time for a round trip of any length this test makes.
    server = await startTestServer({
      databaseUrl: link.proxiedUrl(url.toString()),
      overloadEventLoopDelayMs: 0,
      commandTimeoutMs: 10_000,
      ...config,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await link?.stop();
  });

  function expectOverloaded(a: Answer): void {
    expect(a).toMatchObject({ status: 503, retryAfter: '2', body: { statusCode: 503, code: 'overloaded' } });
    // The commit wait is measured above the fastest commit of the last minute, and the message says so.
    const above = signal === 'commit_wait' ? ' above the fastest of the last minute, \\d+ ms' : '';
    expect(a.body.message).toMatch(new RegExp(`^this server is overloaded \\(${words} \\d+ ms${above}, its mark ${markMs} ms\\)`));
  }

  it(
    `refuses new work with 503 overloaded while ${words} holds its mark, and admits it again once it does not`,
    async () => {
      const api = new HttpApi(server.url);
      const rooms = await Promise.all(Array.from({ length: CLIENTS }, () => api.createRoom({ hostName: 'Host', maxPlayers: 100 })));
      // Each room goes live at its first join, while the database is next door.
      for (const room of rooms) expect((await postTo(server, `/api/rooms/${room.code}/players`, { name: 'First' })).status).toBe(201);
      const opened = await roomRows(server);
      // Servers started in one test process share its metrics registry: what this one counts is the difference.
      const counted = async () => {
        const metrics = await MetricsSnapshot.fetch(server.url);
        return Object.fromEntries(
          ['event_loop_delay', 'commit_wait', 'pool_wait'].map((s) => [
            s,
            metrics.value('game_limit_refusals_total', { limit: `overload_${s}` }),
          ]),
        );
      };
      const before = await counted();

      // Joins commit a statement of their room each (commit wait); opens take a pooled connection each
      // (pool wait). Each client joins its own room, over the far link, until one is refused.
      link.delayMs = 150;
      let sent = 0;
      const work = (client: number) => {
        const n = ++sent;
        return signal === 'commit_wait'
          ? postTo(server, `/api/rooms/${rooms[client].code}/players`, { name: `P${n}` })
          : postTo(server, '/api/rooms', { hostName: `Host ${n}` });
      };
      const { refused, admitted } = await untilRefused(CLIENTS, 40, work);
      for (const refusal of refused) expectOverloaded(refusal);

      // The database next door again: the waits end, and new work is admitted once the level has fallen.
      link.delayMs = 0;
      const more = await untilAdmitted(work);
      for (const refusal of more) expectOverloaded(refusal);

      const after = await counted();
      expect(Object.fromEntries(Object.keys(after).map((s) => [s, after[s] - before[s]]))).toEqual({
        event_loop_delay: 0,
        commit_wait: 0,
        pool_wait: 0,
        [signal]: refused.length + more.length,
      });
      const overview = (await api.request('GET', '/admin/api/overview', undefined, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` })).body;
      expect(overview.admission).toMatchObject({ shedding: false, cause: null, refused: refused.length + more.length });
      expect(overview.admission.signals.find((s: { signal: string }) => s.signal === signal)).toMatchObject({
        markMs,
        admitBelowMs: markMs / 2,
      });
      // A refused open wrote nothing: the rooms are those opened before, and the opens admitted.
      expect(await roomRows(server)).toBe(opened + (signal === 'pool_wait' ? admitted + 1 : 0));
    },
    TEST_MS,
  );
});

/** The database's distance in the test of the commit floor: this much each way, so a commit crosses twice that. */
const LINK_DELAY_MS = 30;

describe("the console's commit floor, the database far away", () => {
  let server: RunningServer;
  let link: DelayProxy;

  beforeAll(async () => {
    const url = new URL(await createTestDatabase());
    // The link is far from the start, so every commit of the last minute has crossed it.
    link = new DelayProxy({ host: url.hostname, port: Number(url.port) }, LINK_DELAY_MS);
    await link.start();
    server = await startTestServer({ databaseUrl: link.proxiedUrl(url.toString()), commandTimeoutMs: 10_000 });
  }, TEST_MS);
  afterAll(async () => {
    await server?.stop();
    await link?.stop();
  });

  it('shows the fastest commit of the last minute, which holds the distance to the database', async () => {
    const api = new HttpApi(server.url);
    const room = await api.createRoom({ hostName: 'Host' });
    // The join makes the room live and commits a statement of the room, over the far link.
    await api.join(room.code, 'Ann');
    const { admission } = (await api.request('GET', '/admin/api/overview', undefined, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }))
      .body;
    // A commit crosses the link twice. Only one crossing is counted on, because a timer may fire a little early.
    expect(admission.commitFloorMs).toBeGreaterThanOrEqual(LINK_DELAY_MS);
    expect(admission.signals.find((s: { signal: string }) => s.signal === 'commit_wait')).toMatchObject({ markMs: 500, admitBelowMs: 250 });
  });
});
