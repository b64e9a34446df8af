import { SeatClient, HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { RetentionPruner } from '../../../libs/server/src/retention/retention-pruner';
import { BUILTIN_DECK_ID } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';
import { startTestServer, TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { closeAll, queryDb, seatRoom, waitFor } from './support';

// Retention (PROTOCOL.md section 14, README "Retention"), against a real server and PostgreSQL.
// Time passes for the rooms a test calls old by moving their own timestamps back 31 days
// (closed_at, finished_at): every window is compared with PostgreSQL's now(), which also stamped them.

/** A room whose game was played to its end, then closed by its host. */
interface Played {
  readonly roomId: string;
  readonly code: string;
  readonly resultsId: string;
}

const DECK = Array.from({ length: 3 }, (_, i) => ({ text: `Question ${i + 1}?`, choices: ['yes', 'no'], correct: 0 }));

async function hostDeck(server: RunningServer, questions = DECK): Promise<string> {
  return (await editableDeck(server, questions)).id;
}

/** A host's deck of `questions`, with its edit token. */
async function editableDeck(server: RunningServer, questions = DECK): Promise<{ id: string; editToken: string }> {
  const created = await new HttpApi(server.url).request('POST', '/api/decks', { name: 'A host’s deck', questions });
  expect(created.status).toBe(201);
  return created.body;
}

/** One game of one question to its end (the only answer closes the question at once), then the host closes the room. */
async function playToTheEnd(server: RunningServer, settings: Record<string, unknown>): Promise<Played> {
  const room = await seatRoom(server, ['Ann'], { questionCount: 1, secondsPerQuestion: 30, revealSeconds: 0, ...settings });
  expect((await room.host.send('room.start')).status).toBe(200);
  await room.players[0].nextEvent('question.open');
  expect((await room.players[0].send('room.answer', { question: 0, choice: 0 })).status).toBe(200);
  const finished = await room.host.nextEvent('game.finished');
  await close(server, room);
  closeAll(room);
  return { roomId: room.roomId, code: room.code, resultsId: finished.data.resultsId };
}

/** A lobby opened with `settings` and closed by its host, nobody having played. */
async function closedLobby(server: RunningServer, settings: Record<string, unknown>): Promise<Played> {
  const room = await new HttpApi(server.url).createRoom({ hostName: 'Host', ...settings });
  await close(server, room);
  return { roomId: room.roomId, code: room.code, resultsId: '' };
}

async function close(server: RunningServer, room: { code: string; hostToken: string }): Promise<void> {
  const res = await fetch(`${server.url}/api/rooms/${room.code}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${room.hostToken}` },
  });
  expect(res.status).toBe(204);
}

/** Closed, and their games finished, 31 days ago. */
async function age(server: RunningServer, rooms: readonly Played[]): Promise<void> {
  const ids = rooms.map((r) => r.roomId);
  await queryDb(server, `UPDATE rooms SET closed_at = closed_at - interval '31 days' WHERE id = ANY($1::uuid[])`, [ids]);
  await queryDb(server, `UPDATE finished_games SET finished_at = finished_at - interval '31 days' WHERE room_id = ANY($1::uuid[])`, [ids]);
}

/** What the database holds of these rooms, table by table. */
async function held(server: RunningServer, rooms: readonly Played[]) {
  const [row] = await queryDb(
    server,
    `SELECT (SELECT count(*)::int FROM room_journal WHERE room_id = ANY($1::uuid[])) AS journal,
            (SELECT count(*)::int FROM room_snapshots WHERE room_id = ANY($1::uuid[])) AS snapshots,
            (SELECT count(*)::int FROM rooms WHERE id = ANY($1::uuid[]) AND deck IS NOT NULL) AS "deckCopies",
            (SELECT count(*)::int FROM finished_games WHERE room_id = ANY($1::uuid[])) AS games,
            (SELECT count(*)::int FROM room_heads WHERE room_id = ANY($1::uuid[])) AS heads,
            (SELECT count(*)::int FROM rooms WHERE id = ANY($1::uuid[])) AS rooms`,
    [rooms.map((r) => r.roomId)],
  );
  return row;
}

const results = (server: RunningServer, played: Played) =>
  new HttpApi(server.url).request('GET', `/api/results/${played.resultsId}`).then((r) => r.status);
const summary = (server: RunningServer, played: Played) =>
  new HttpApi(server.url).request('GET', `/api/rooms/${played.code}`).then((r) => r.status);

describe('retention', () => {
  describe('with the default windows (30 days for results and finished games) and batches of 10', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { retentionBatchRows: 10 });

    it('removes what closed rooms and finished games leave behind once their window passed, in batches of 10, and keeps what is within it', async () => {
      const deckId = await hostDeck(server);
      // 35 old rooms: 4 games on the host's deck (copied into each room), 4 on the built-in deck
      // (referenced, not copied), and 27 lobbies on the host's deck closed unplayed.
      const old: Played[] = [];
      for (let i = 0; i < 4; i++) old.push(await playToTheEnd(server, { deckId }));
      for (let i = 0; i < 4; i++) old.push(await playToTheEnd(server, {}));
      for (let i = 0; i < 27; i++) old.push(await closedLobby(server, { deckId, questionCount: 3 }));
      // Within the window: two games played to the end and closed, and a room still open.
      const recent = [await playToTheEnd(server, { deckId }), await playToTheEnd(server, {})];
      const open = await seatRoom(server, ['Bo'], { deckId, questionCount: 3 });
      expect(await held(server, old)).toMatchObject({ snapshots: 35, deckCopies: 31, games: 8, heads: 35, rooms: 35 });
      const journaled = (await held(server, old)).journal;
      const before = await MetricsSnapshot.fetch(server.url);

      await age(server, old);
      // Past the window a results link answers 404 at once, whether or not its row is gone yet.
      expect(await results(server, old[0])).toBe(404);
      const log = server.runtime.meter.capture();
      const report = await server.app.get(RetentionPruner).sweep();
      const statements = log.stop();

      // Every room and game past the window: gone from every table.
      expect(await held(server, old)).toEqual({ journal: 0, snapshots: 0, deckCopies: 0, games: 0, heads: 0, rooms: 0 });
      expect(report!.removed).toEqual({
        room_journal: journaled,
        room_snapshots: 35,
        room_decks: 31,
        finished_games: 8,
        rooms: 35,
        room_heads: 35,
        // The host's deck was edited within its window: it stays, though no room names it now.
        decks: 0,
        questions: 0,
        deck_images: 0,
      });
      // In batches of at most 10 rows or rooms, each one statement, until one came back short.
      const batches = (n: number) => Math.floor(n / 10) + 1;
      expect(report!.statements).toEqual({
        closedJournals: batches(journaled),
        closedRooms: batches(35),
        orphanedImages: 1,
        finishedGames: batches(8),
        roomRows: batches(35),
        unusedDecks: 1,
      });
      expect(statements.filter((s) => s === 'RetentionRepository.pruneClosedRooms')).toHaveLength(4);
      expect(statements.every((s) => /^(RetentionRepository\.|DeckRepository\.pruneUnusedDecks$)/.test(s))).toBe(true);
      // Counted in /metrics by table.
      const after = await MetricsSnapshot.fetch(server.url);
      const removed = (table: string) =>
        after.value('game_retention_removed_total', { table }) - before.value('game_retention_removed_total', { table });
      expect(['room_journal', 'room_snapshots', 'room_decks', 'finished_games', 'rooms', 'room_heads'].map(removed)).toEqual([
        journaled,
        35,
        31,
        8,
        35,
        35,
      ]);
      expect(after.value('game_retention_failures_total', {})).toBe(0);

      // An old room's code names no room; an old results link is gone.
      expect(await summary(server, old[0])).toBe(404);
      expect(await summary(server, old[5])).toBe(404);
      expect(await results(server, old[5])).toBe(404);
      // What is within the window is all there: results links read, closed rooms keep their snapshot.
      expect(await Promise.all(recent.map((r) => results(server, r)))).toEqual([200, 200]);
      expect(await held(server, recent)).toMatchObject({ snapshots: 2, deckCopies: 1, games: 2, rooms: 2 });
      // Closed, within its window: answered from its row alone (410), never rebuilt; pruned: 404.
      expect(await summary(server, recent[0])).toBe(410);
      expect(await new HttpApi(server.url).request('GET', `/api/rooms/${open.code}`)).toMatchObject({
        status: 200,
        body: { phase: 'lobby' },
      });
      expect((await open.host.send('room.start')).status).toBe(200);
      closeAll(open);

      // Nothing more is due: the next sweep removes nothing.
      expect((await server.app.get(RetentionPruner).sweep())!.removed).toEqual({
        room_journal: 0,
        room_snapshots: 0,
        room_decks: 0,
        finished_games: 0,
        rooms: 0,
        room_heads: 0,
        decks: 0,
        questions: 0,
        deck_images: 0,
      });
    }, 120_000);
  });

  describe('with finished games kept a year (FINISHED_GAMES_KEPT_DAYS=365)', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { finishedGamesKeptDays: 365 });

    it("removes a closed room's journal, snapshot and deck copy after the results window, and keeps its finished game for the console", async () => {
      const played = await playToTheEnd(server, { deckId: await hostDeck(server) });
      await age(server, [played]);
      await server.app.get(RetentionPruner).sweep();
      expect(await held(server, [played])).toEqual({ journal: 0, snapshots: 0, deckCopies: 0, games: 1, heads: 1, rooms: 1 });
      // The public link's life is the results window; operators read the record as long as it is kept.
      expect(await results(server, played)).toBe(404);
      const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
      expect((await new HttpApi(server.url).request('GET', `/admin/api/finished/${played.resultsId}`, undefined, admin)).status).toBe(200);
      expect(await summary(server, played)).toBe(404);
    });
  });

  describe("hosts' decks, with the default window (30 days since the last edit) and batches of 10 rows", () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { retentionBatchRows: 10 });

    /** Moves the decks' last edit `days` back. */
    const edited = (ids: readonly string[], days: number) =>
      queryDb(server, `UPDATE decks SET updated_at = updated_at - make_interval(days => $2) WHERE id = ANY($1::uuid[])`, [ids, days]);
    /** The decks of `named` still there, each as `name:questions`. */
    const kept = async (named: Record<string, string>) => {
      const rows = await queryDb<{ id: string; questions: number }>(
        server,
        `SELECT d.id, (SELECT count(*) FROM questions q WHERE q.deck_id = d.id)::int AS questions FROM decks d WHERE d.id = ANY($1::uuid[])`,
        [Object.values(named)],
      );
      const nameOf = new Map(Object.entries(named).map(([name, id]) => [id, name]));
      return rows.map((r) => `${nameOf.get(r.id)}:${r.questions}`).sort();
    };
    const sweep = async () => {
      const log = server.runtime.meter.capture();
      const report = (await server.app.get(RetentionPruner).sweep())!;
      return { report, statements: log.stop().filter((s) => s === 'DeckRepository.pruneUnusedDecks').length };
    };

    it('removes the decks no room names and nobody edited within the window, with their questions, in bounded batches; never one a room names', async () => {
      const question = (i: number) => ({ text: `Question ${i}?`, choices: ['yes', 'no'], correct: 0 });
      const deleted = await editableDeck(server);
      const decks = {
        big: await hostDeck(
          server,
          Array.from({ length: 12 }, (_, i) => question(i)),
        ),
        deleted: deleted.id,
        small1: await hostDeck(server),
        small2: await hostDeck(server),
        small3: await hostDeck(server),
        recent: await hostDeck(server),
        inLiveRoom: await hostDeck(server),
        inClosedRoom: await hostDeck(server),
        builtin: BUILTIN_DECK_ID,
      };
      const builtin = (await kept({ builtin: BUILTIN_DECK_ID }))[0];
      const live = await seatRoom(server, ['Ann'], { deckId: decks.inLiveRoom, questionCount: 3 });
      const closed = await closedLobby(server, { deckId: decks.inClosedRoom, questionCount: 3 });
      // Each room names the host's deck it copied: that is what keeps the deck.
      const named = await queryDb<{ deckId: string }>(server, 'SELECT deck_id AS "deckId" FROM rooms WHERE id = ANY($1::uuid[])', [
        [live.roomId, closed.roomId],
      ]);
      expect(named.map((r) => r.deckId).sort()).toEqual([decks.inLiveRoom, decks.inClosedRoom].sort());
      const deletion = await fetch(`${server.url}/api/decks/${deleted.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${deleted.editToken}` },
      });
      expect(deletion.status).toBe(204);
      // The oldest first: the big deck, the deleted one, then the rest; the built-in deck is older than all.
      await edited([decks.big], 40);
      await edited([decks.deleted], 35);
      await edited([decks.small1, decks.small2, decks.small3, decks.inLiveRoom, decks.inClosedRoom], 31);
      await edited([BUILTIN_DECK_ID], 3650);
      const before = await MetricsSnapshot.fetch(server.url);

      const first = await sweep();

      // The deck edited lately, the two that rooms name and the built-in one are left, questions and all.
      expect(await kept(decks)).toEqual(['inClosedRoom:3', 'inLiveRoom:3', 'recent:3', builtin].sort());
      expect(first.report.removed).toMatchObject({ decks: 5, questions: 12 + 0 + 3 * 3 });
      // At most 10 rows a statement, decks and questions together, and always one deck: the big
      // deck (13 rows) alone, then the deleted deck (its row only) and two small ones (9), then the last.
      expect([first.report.statements.unusedDecks, first.statements]).toEqual([3, 3]);
      const after = await MetricsSnapshot.fetch(server.url);
      const removed = (table: string) =>
        after.value('game_retention_removed_total', { table }) - before.value('game_retention_removed_total', { table });
      expect([removed('decks'), removed('questions')]).toEqual([5, 21]);

      // The live room plays its copy as ever. Once it has closed and its row is gone, its deck goes
      // in the same sweep, and so does the closed room's.
      expect((await live.host.send('room.start')).status).toBe(200);
      await close(server, live);
      closeAll(live);
      await age(server, [{ roomId: live.roomId, code: live.code, resultsId: '' }, closed]);
      const second = await sweep();
      expect(second.report.removed).toMatchObject({ rooms: 2, decks: 2, questions: 6 });
      expect(await kept(decks)).toEqual(['recent:3', builtin].sort());
      // Nothing more is due.
      expect((await sweep()).report.removed).toMatchObject({ decks: 0, questions: 0 });
    }, 120_000);
  });

  describe('with decks kept for ever (DECKS_KEPT_DAYS=0)', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { decksKeptDays: 0 });

    it('removes no deck, however old', async () => {
      const deck = await hostDeck(server);
      await queryDb(server, `UPDATE decks SET updated_at = updated_at - interval '3650 days' WHERE id = $1`, [deck]);
      const report = await server.app.get(RetentionPruner).sweep();
      expect(report!.statements.unusedDecks).toBe(0);
      expect(await queryDb(server, 'SELECT id FROM decks WHERE id = $1', [deck])).toEqual([{ id: deck }]);
    });
  });

  describe('a timer', () => {
    let server: RunningServer;
    withTestServer((s) => (server = s), { retentionSweepMs: 50 });

    it('sweeps by itself, off every command’s path', async () => {
      const played = await playToTheEnd(server, {});
      await age(server, [played]);
      await waitFor(async () => (await held(server, [played])).rooms === 0, 'the timer’s sweep to remove the room', 20_000);
      expect(await held(server, [played])).toEqual({ journal: 0, snapshots: 0, deckCopies: 0, games: 0, heads: 0, rooms: 0 });
    });
  });
});

describe('a built-in deck referenced by a room', () => {
  it('brings the room back with the deck it opened with, and refuses to rebuild it with one changed in place', async () => {
    const databaseUrl = await createTestDatabase();
    let server = await startTestServer({ databaseUrl });
    const room = await seatRoom(server, ['Ann'], { questionCount: 2, secondsPerQuestion: 300 });
    expect((await room.host.send('room.start')).status).toBe(200);
    const question = (await room.players[0].nextEvent('question.open')).data;
    closeAll(room);
    await server.stop();
    const [row] = await queryDb({ databaseUrl }, `SELECT deck IS NULL AS "noCopy", deck_id AS "deckId" FROM rooms WHERE id = $1`, [
      room.roomId,
    ]);
    expect(row).toEqual({ noCopy: true, deckId: BUILTIN_DECK_ID });

    // A new process reads the built-in deck and finds the hash the room opened with: the same question.
    server = await startTestServer({ databaseUrl });
    const host = await SeatClient.connect(server.url, room.hostToken);
    const back = (await host.nextEvent('room.state')).data;
    host.close();
    expect(back).toMatchObject({ phase: 'question', question: { index: 0, text: question.text } });
    await server.stop();

    // A built-in deck changed in place (a migration that should have given it a new id): the room
    // cannot be replayed with the questions it drew, so it is refused, not rebuilt with others.
    await queryDb({ databaseUrl }, `UPDATE questions SET text = text || ' (edited)' WHERE deck_id = $1`, [BUILTIN_DECK_ID]);
    server = await startTestServer({ databaseUrl });
    try {
      expect((await new HttpApi(server.url).request('GET', `/api/rooms/${room.code}`)).status).toBe(500);
    } finally {
      await server.stop();
    }
  });
});
