import { chmodSync, chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeatClient, GameEvent, HttpApi } from '@app/bot-kit';
import { RunningPostgres } from '../src/embedded/postgres-cluster';
import { postgresUser } from '../src/embedded/postgres-user';
import { createDatabase, DEBIAN_POSTGRES_BIN, OLDEST_MAJOR, startDebianPostgres } from '../../../test/support/debian-postgres';
import { runProgram } from '../../../test/support/programs';
import { ServerProcess } from '../../../test/support/server-process';
import { SeatedRoom, seatRoom, waitFor } from './support';

// docs/operations.md "Backup and restore", done for real: a running server's database is backed
// up while one of its rooms plays, with pg_dump (restored with pg_restore into a fresh database)
// and with pg_basebackup (a new PostgreSQL started on the copy). A second server process started
// on the copy finds every room as it last was, reads every results link, and plays on. Debian's
// PostgreSQL 15 and its client tools (the embedded PostgreSQL ships no pg_dump).

const WAIT_MS = 10_000;
const RIGHT = 1;
const WRONG = 0;
/** A deck long enough that the room playing through a backup does not run out of questions. */
const QUESTIONS = 50;

/** A room.state without what changes by itself: the server's clock and who is connected now. */
function comparable(state: GameEvent): unknown {
  const { serverTime: _time, players, ...rest } = state.data;
  return { ...rest, players: players.map(({ connected: _connected, ...seat }: { connected: boolean }) => seat) };
}

async function stateSeenBy(url: string, token: string): Promise<GameEvent> {
  const client = await SeatClient.connect(url, token, { timeoutMs: WAIT_MS });
  try {
    return await client.nextEvent('room.state');
  } finally {
    client.close();
  }
}

/** Runs one of PostgreSQL's client programs to its end; fails with its output unless it exits 0. */
async function runTool(program: string, args: string[], asPostgres = false): Promise<void> {
  const env = { PATH: process.env.PATH ?? '', LC_MESSAGES: 'C' };
  const run = await runProgram(join(DEBIAN_POSTGRES_BIN, program), args, { env, user: asPostgres ? postgresUser() : undefined });
  if (run.code !== 0) throw new Error(`${program} ${args.join(' ')} exited with ${run.code}: ${run.stdout}${run.stderr}`);
}

/**
 * A room whose two players answer every question as it opens (Ann right, Bob wrong), on the
 * server's clock, until told to stop. It counts the questions both have been acknowledged for
 * and those both have sent answers to: a backup taken between two moments holds at least the
 * first count then and at most the second.
 */
class PlayingRoom {
  acknowledged = 0;
  sent = 0;
  private stopped = false;
  /** What went wrong while it played (an answer refused), said when it is stopped. */
  private failure?: unknown;

  constructor(readonly room: SeatedRoom) {
    this.play().catch((err: unknown) => {
      if (!this.stopped) this.failure = err;
    });
  }

  private async play(): Promise<void> {
    const [ann, bob] = this.room.players;
    for (let index = 0; index < QUESTIONS && !this.stopped; index++) {
      await Promise.all([ann, bob].map((c) => c.nextEvent('question.open', (e) => e.data.index === index)));
      if (this.stopped) return;
      this.sent = index + 1;
      const replies = await Promise.all([
        ann.send('room.answer', { question: index, choice: RIGHT }, `ann-q${index}`),
        bob.send('room.answer', { question: index, choice: WRONG }, `bob-q${index}`),
      ]);
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      this.acknowledged = index + 1;
    }
  }

  /** Resolves once both players have been acknowledged for a question. */
  async untilPlaying(): Promise<void> {
    await waitFor(() => this.acknowledged > 0 || this.failure !== undefined, 'the first question answered by both', WAIT_MS);
    if (this.failure) throw this.failure;
  }

  /** Stops sending: what was sent until now is all this room can have recorded. */
  stop(): { sent: number } {
    if (this.failure) throw this.failure;
    this.stopped = true;
    for (const c of [this.room.host, ...this.room.players]) c.close();
    return { sent: this.sent };
  }
}

/** How far a trivia room is: the questions closed (both answered, or past their clock). */
function questionsClosed(state: GameEvent): number {
  const d = state.data;
  if (d.phase === 'question') return d.question.index;
  if (d.phase === 'reveal') return d.reveal.index + 1;
  if (d.phase === 'finished') return QUESTIONS;
  throw new Error(`unexpected phase ${d.phase}`);
}

describe(`backup and restore of a running service (PostgreSQL ${OLDEST_MAJOR}: pg_dump and pg_basebackup)`, () => {
  let pg: RunningPostgres;
  let live: ServerProcess;
  let deckId: string;
  /** Rooms that stay as they are while the backups are taken, and what a host saw of each. */
  const quiet: { name: string; room: SeatedRoom; before: unknown }[] = [];
  /** Every finished game's results as the live server served them: JSON and CSV. */
  const results = new Map<string, { json: unknown; csv: string }>();
  const others: ServerProcess[] = [];
  const clusters: RunningPostgres[] = [];

  beforeAll(async () => {
    pg = await startDebianPostgres();
    live = await ServerProcess.create({ databaseUrl: await createDatabase(pg, 'live'), env: { INSTANCE_NAME: 'live' } });
    await live.explainFailure(async () => {
      await live.start();
      const questions = Array.from({ length: QUESTIONS }, (_, i) => ({
        text: `Question ${i + 1}?`,
        choices: ['north', 'east', 'south', 'west'],
        correct: RIGHT,
      }));
      const deck = await new HttpApi(live.url).request('POST', '/api/decks', { name: 'Backup deck', questions });
      expect(deck.status).toBe(201);
      deckId = deck.body.id;

      // Seated, never started.
      const lobby = await seatRoom(live, ['Ann', 'Bob', 'Cy'], { deckId }, { timeoutMs: WAIT_MS });
      // Question 0 closed (scores), question 1 open on a long clock with two of three answers.
      const midQuestion = await seatRoom(
        live,
        ['Dee', 'Eve', 'Fay'],
        { deckId, questionCount: 3, secondsPerQuestion: 300, revealSeconds: 0 },
        { timeoutMs: WAIT_MS },
      );
      expect((await midQuestion.host.send('room.start', {}, 'start')).status).toBe(200);
      for (const index of [0, 1]) {
        await Promise.all(midQuestion.players.map((c) => c.nextEvent('question.open', (e) => e.data.index === index)));
        const answering = index === 0 ? midQuestion.players : midQuestion.players.slice(0, 2);
        const replies = await Promise.all(
          answering.map((c, i) => c.send('room.answer', { question: index, choice: i === 0 ? RIGHT : WRONG }, `q${index}-${i}`)),
        );
        expect(replies.map((r) => r.status)).toEqual(answering.map(() => 200));
      }
      // A game played to its end (its results link), then a rematch everyone voted for: back in the lobby.
      const rematched = await seatRoom(
        live,
        ['Gus', 'Hal'],
        { deckId, questionCount: 1, secondsPerQuestion: 300, revealSeconds: 0 },
        { timeoutMs: WAIT_MS },
      );
      expect((await rematched.host.send('room.start', {}, 'start')).status).toBe(200);
      await Promise.all(rematched.players.map((c) => c.nextEvent('question.open')));
      await Promise.all(rematched.players.map((c, i) => c.send('room.answer', { question: 0, choice: i === 0 ? RIGHT : WRONG }, 'a-0')));
      const finished = await rematched.host.nextEvent('game.finished');
      await rematched.host.nextEvent('rematch.open');
      await Promise.all(rematched.players.map((c, i) => c.send('room.rematch', { vote: true }, `vote-${i}`)));
      await rematched.host.nextEvent('room.state', (e) => e.data.phase === 'lobby');
      await keepResults(live, finished.data.resultsId);

      // Their sockets stay open: a player who leaves can close a question (everyone connected has answered).
      for (const [name, room] of Object.entries({ lobby, midQuestion, rematched }))
        quiet.push({ name, room, before: comparable(await stateSeenBy(live.url, room.hostToken)) });
    });
  }, 90_000);

  afterAll(async () => {
    for (const { room } of quiet) for (const c of [room.host, ...room.players]) c.close();
    await Promise.all([live, ...others].map((s) => s?.dispose()));
    for (const c of clusters) await c.stop();
    await pg?.stop();
  });

  async function keepResults(server: ServerProcess, resultsId: string): Promise<void> {
    const api = new HttpApi(server.url);
    const json = await api.request('GET', `/api/results/${resultsId}`);
    expect(json.status).toBe(200);
    const csv = await fetch(`${server.url}/api/results/${resultsId}.csv`);
    expect(csv.status).toBe(200);
    results.set(resultsId, { json: json.body, csv: await csv.text() });
  }

  /**
   * Takes a backup with `backup` while a room plays, starts a server on what `restore` makes of
   * it, and checks that every room is as it last was, every results link reads the same, and the
   * room that played goes on to its end.
   */
  async function backupWhilePlaying(backup: () => Promise<void>, restore: () => Promise<string>): Promise<void> {
    const busy = new PlayingRoom(
      await seatRoom(
        live,
        ['Ivy', 'Jon'],
        { deckId, questionCount: QUESTIONS, secondsPerQuestion: 300, revealSeconds: 0.05 },
        { timeoutMs: WAIT_MS },
      ),
    );
    expect((await busy.room.host.send('room.start', {}, 'start')).status).toBe(200);
    await busy.untilPlaying();
    const atStart = busy.acknowledged;
    await backup();
    const { sent: atEnd } = busy.stop();

    const restored = await ServerProcess.create({ databaseUrl: await restore(), env: { INSTANCE_NAME: 'live' } });
    others.push(restored);
    await restored.explainFailure(async () => {
      await restored.start();
      for (const { name, room, before } of quiet)
        expect({ name, state: comparable(await stateSeenBy(restored.url, room.hostToken)) }).toEqual({ name, state: before });
      const api = new HttpApi(restored.url);
      for (const [resultsId, kept] of results) {
        expect(await api.request('GET', `/api/results/${resultsId}`)).toEqual({ status: 200, body: kept.json });
        expect(await (await fetch(`${restored.url}/api/results/${resultsId}.csv`)).text()).toBe(kept.csv);
      }

      // The busy room is where the backup caught it: no acknowledged answer before it began is lost.
      const [host, ann, bob] = await Promise.all(
        [busy.room.hostToken, ...busy.room.playerTokens].map((t) => SeatClient.connect(restored.url, t, { timeoutMs: WAIT_MS })),
      );
      const [state] = await Promise.all([host, ann, bob].map((c) => c.nextEvent('room.state')));
      const closed = questionsClosed(state);
      expect(closed).toBeGreaterThanOrEqual(atStart);
      expect(closed).toBeLessThanOrEqual(atEnd);
      // It plays on from there to its end, and its results read.
      for (let index = closed; index < QUESTIONS; index++) {
        for (const c of [ann, bob]) {
          const open = (e: GameEvent) =>
            (e.type === 'question.open' && e.data.index === index) || (e.type === 'room.state' && e.data.question?.index === index);
          if (!c.events.some(open)) await c.nextEvent('question.open', (e) => e.data.index === index);
        }
        const replies = await Promise.all([
          ann.send('room.answer', { question: index, choice: RIGHT }, `ann-q${index}`),
          bob.send('room.answer', { question: index, choice: WRONG }, `bob-q${index}`),
        ]);
        // An answer the backup already had is answered as before; either way it counts once.
        expect(replies.map((r) => r.status)).toEqual([200, 200]);
      }
      // A slow backup may have caught the game finished already: its room.state then says how it ended.
      const finished = state.data.phase === 'finished' ? state.data : (await host.nextEvent('game.finished')).data;
      expect(finished.standings.map((s: { correct: number }) => s.correct).sort()).toEqual([0, QUESTIONS]);
      expect((await api.request('GET', `/api/results/${finished.resultsId}`)).status).toBe(200);
      for (const c of [host, ann, bob]) c.close();
    });
    await restored.dispose();
  }

  it('pg_dump while a room plays, pg_restore into a fresh database: every room as it last was, every results link, and play goes on', async () => {
    const dump = join(mkdtempSync(join(tmpdir(), 'game-backup-')), 'game.dump');
    await backupWhilePlaying(
      () => runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, `--dbname=${live.databaseUrl}`]),
      async () => {
        const url = await createDatabase(pg, 'restored_from_dump');
        await runTool('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${url}`, dump]);
        return url;
      },
    );
  }, 90_000);

  it('pg_basebackup while a room plays, a new PostgreSQL started on the copy: the same', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'game-basebackup-'));
    chmodSync(parent, 0o755);
    const copy = join(parent, 'pg');
    const user = postgresUser();
    if (user) chownSync(parent, user.uid, user.gid);
    await backupWhilePlaying(
      // As the postgres user, so that the copy is that user's, as a server started on it needs.
      () =>
        runTool('pg_basebackup', [`--dbname=${pg.url('postgres')}`, `--pgdata=${copy}`, '--wal-method=stream', '--checkpoint=fast'], true),
      async () => {
        const started = await startDebianPostgres(copy);
        clusters.push(started);
        return started.url('live');
      },
    );
  }, 90_000);
});
