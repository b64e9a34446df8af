import { HUMAN_SEAT, privacyLeaks, truthFromFrames } from '@app/games/cards';
import { SeatClient, GameEvent, HttpApi, nextEventFrom } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { ServerProcess } from '../../../test/support/server-process';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { journaled, journaledIds, queryDb } from './support';
import { untilSecondTurn } from '../../../libs/games/cards/test/cards.turns';

// A card practice table over real HTTP, real sockets and real PostgreSQL (PROTOCOL.md section 8).

const SEED = 4242;
const BOTS = 3;
const FAST = { name: 'Ann', bots: BOTS, seed: SEED, actionSeconds: 0.5, botThinkMs: [5, 20], handPauseMs: 50 };

const events = (c: SeatClient) => c.decoded.filter((f): f is GameEvent => f.type !== 'reply');

const truthOf = (frames: readonly GameEvent[]) => truthFromFrames(frames, SEED, BOTS + 1);

/** Every write of a table is one statement on its journal: an append for the human's action, a record for a hand's end the clock took. */
const APPEND = 'JournalRepository.append';
const RECORD = 'JournalRepository.record';

describe('card practice tables', () => {
  let server: RunningServer;
  let api: HttpApi;

  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  it('refuses a bad body with a 400 naming the field, and opens nothing', async () => {
    for (const [body, field] of [
      [{}, 'name'],
      [{ name: 'Ann', bots: 9 }, 'bots'],
      [{ name: 'Ann', bigBlind: 1, smallBlind: 2 }, 'bigBlind'],
      [{ name: 'Ann', actionSeconds: 0.1 }, 'actionSeconds'],
      [{ name: 'Ann', botThinkMs: [20, 5] }, 'botThinkMs'],
      [{ name: 'Ann', seed: 1.5 }, 'seed'],
    ] as const) {
      const res = await api.request('POST', '/api/tables', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_data');
      expect(res.body.message).toContain(field);
    }
    expect(await queryDb(server, `SELECT count(*)::int AS n FROM rooms WHERE game = 'cards'`)).toEqual([{ n: 0 }]);
  });

  it('answers 404 for an unknown table and for a trivia room’s code, and closes a table only with its player’s token', async () => {
    expect((await api.request('GET', '/api/tables/ZZZZZZ')).status).toBe(404);
    const room = await api.createRoom({ hostName: 'Host' });
    expect((await api.request('GET', `/api/tables/${room.code}`)).status).toBe(404);
    expect((await api.request('GET', `/api/rooms/${room.code}`)).status).toBe(200);

    const table = (await api.request('POST', '/api/tables', { ...FAST, handPauseMs: 60_000 })).body;
    // /api/rooms/{code} is every game's path; /api/tables/{code} is the card tables' own alias.
    const generic = await api.request('GET', `/api/rooms/${table.code}`);
    expect(generic.status).toBe(200);
    expect(generic.body).toEqual((await api.request('GET', `/api/tables/${table.code}`)).body);
    expect((await api.request('DELETE', `/api/tables/${table.code}`)).status).toBe(401);
    expect(
      (await api.request('DELETE', `/api/tables/${table.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status,
    ).toBe(404);
    const spectator = (await api.request('POST', `/api/tables/${table.code}/spectators`, {})).body;
    expect(
      (await api.request('DELETE', `/api/tables/${table.code}`, undefined, { authorization: `Bearer ${spectator.spectatorToken}` })).status,
    ).toBe(403);
    const human = await SeatClient.connect(server.url, table.playerToken);
    await human.nextEvent('table.snapshot');
    expect(
      (await api.request('DELETE', `/api/tables/${table.code}`, undefined, { authorization: `Bearer ${table.playerToken}` })).status,
    ).toBe(204);
    expect((await human.nextEvent('table.closed')).data).toEqual({ reason: 'player_closed' });
    expect((await human.waitClosed()).code).toBe(4004);
    expect(await api.request('GET', `/api/tables/${table.code}`)).toMatchObject({ status: 410, body: { code: 'room_gone' } });
    expect(
      (await api.request('DELETE', `/api/tables/${table.code}`, undefined, { authorization: `Bearer ${table.playerToken}` })).status,
    ).toBe(204);
  });

  it('plays hands with a human and a spectator: own cards only, one statement per human action, none per bot action, at most one per hand’s end', async () => {
    const opened = await api.request('POST', '/api/tables', FAST);
    expect(opened.status).toBe(201);
    const { code, tableId, playerToken } = opened.body;
    const { spectatorToken } = (await api.request('POST', `/api/tables/${code}/spectators`, {})).body;
    const log = server.runtime.meter.capture();
    const human = await SeatClient.connect(server.url, playerToken);
    const spectator = await SeatClient.connect(server.url, spectatorToken);
    await human.nextEvent('table.snapshot');
    await spectator.nextEvent('table.snapshot');

    // The human checks when it can, else calls, until it has acted in a finished hand and two were played.
    const cursor = { at: 0 };
    let acted = 0;
    let actedInFinished = 0;
    let hands = 0;
    while (actedInFinished === 0 || hands < 2) {
      const next = await nextEventFrom(
        human,
        cursor,
        (e) => e.type === 'hand.finished' || (e.type === 'time_bank' && e.data.seat === HUMAN_SEAT),
        10_000,
      );
      if (next.type === 'hand.finished') {
        hands++;
        actedInFinished = acted;
        continue;
      }
      const one = server.runtime.meter.capture();
      let reply = await human.send('table.act', { action: 'check' });
      if (reply.status === 409 && reply.error?.code === 'illegal_action') reply = await human.send('table.act', { action: 'call' });
      const statements = one.stop();
      // A hand's end the clock took meanwhile (its own statement, RECORD) may fall in the same
      // window on a slow machine; it is counted with the hands' ends below.
      const own = statements.filter((t) => t !== RECORD);
      if (reply.status === 200) {
        acted++;
        expect(own).toEqual([APPEND]);
      } else {
        // Half a second's clock may run out on a noisy machine: the refusal then costs nothing.
        expect(reply.error?.code).toBe('not_your_turn');
        expect(own).toEqual([]);
      }
    }
    const trips = log.stop();

    // Bots' actions cost nothing; each hand's end at most one statement (none when it rides on the
    // human's action); each human action one.
    expect(trips.filter((t) => t === APPEND)).toHaveLength(acted);
    const others = trips.filter((t) => t !== APPEND);
    expect(others.every((t) => t === RECORD)).toBe(true);
    const finishedHands = events(human).filter((e) => e.type === 'hand.finished').length;
    expect(others.length).toBeLessThanOrEqual(finishedHands);

    // The human saw its own cards; the spectator never a hole card before the showdown.
    const dealt = events(human).filter((e) => e.type === 'hole_cards.dealt' && e.data.seat === HUMAN_SEAT);
    expect(dealt.length).toBeGreaterThan(0);
    expect(dealt[0].data.cards).toHaveLength(2);
    const truth = truthOf(events(human));
    expect(privacyLeaks(events(human), truth, HUMAN_SEAT)).toEqual([]);
    expect(privacyLeaks(events(spectator), new Map([...truthOf(events(spectator)), ...truth]), undefined)).toEqual([]);
    expect(events(spectator).some((e) => e.type === 'hole_cards.dealt' && e.data.cards !== null)).toBe(false);

    // The summary shows stacks and hands, never a card; chips are conserved between hands.
    const summary = (await api.request('GET', `/api/tables/${code}`)).body;
    expect(JSON.stringify(summary)).not.toMatch(/"[2-9TJQKA][shdc]"/);
    expect(summary.seats).toHaveLength(BOTS + 1);
    // Operators see the live table beside trivia's rooms, without a card.
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const listed = (await api.request('GET', '/admin/api/rooms', undefined, admin)).body.rooms.find((r: any) => r.code === code);
    // Its row is the game's own summary: every seat at the table (the bots too), the human connected.
    expect(listed).toMatchObject({ code, game: 'cards', players: BOTS + 1, playersConnected: 1 });
    const detail = await api.request('GET', `/admin/api/rooms/${code}`, undefined, admin);
    expect(detail.status).toBe(200);
    expect(detail.body.table.seats).toHaveLength(BOTS + 1);
    expect(JSON.stringify(detail.body.table)).not.toMatch(/"[2-9TJQKA][shdc]"/);
    // Each hand's end snapshotted the table and cut its journal there: it holds the acts since the last one.
    expect(await journaled(server, tableId, 'table.act')).toHaveLength(acted - actedInFinished);
    human.close();
    spectator.close();
  });
});

describe('a card table after kill -9 of a real server process', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await ServerProcess.create();
    await server.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('comes back mid-hand: same hand and hole cards, every acknowledged action kept, chips conserved, a resent id gets its original reply', () =>
    server.explainFailure(async () => {
      const api = new HttpApi(server.url);
      // A long clock: the human's turn outlasts the restart.
      const { code, tableId, playerToken } = (await api.request('POST', '/api/tables', { ...FAST, actionSeconds: 60 })).body;
      const human = await SeatClient.connect(server.url, playerToken);
      const first = await human.nextEvent('table.snapshot');
      // The rules come inside the first snapshot (section 8 allows it), not as a table.rules frame.
      expect(first.data.rules).toEqual({ smallBlind: 1, bigBlind: 2, buyIn: 200, actionSeconds: 60 });

      // The human acts once in a hand, then the server dies at its next turn in that same hand.
      const { hand, acknowledged, thisHand, cards } = await untilSecondTurn(human, first, 10_000);
      expect(cards).toHaveLength(2);

      expect((await server.kill('SIGKILL')).signal).toBe('SIGKILL');
      await server.restart();

      const back = await SeatClient.connect(server.url, playerToken, { timeoutMs: 10_000 });
      const snapshot = await back.nextEvent('table.snapshot');
      expect(snapshot.data.hand.number).toBe(hand);
      // The bots' actions since the human's last one were never written: they are taken again on
      // their schedule from the restart, as they were, and the turn comes back to the human.
      if (snapshot.data.hand.toAct !== HUMAN_SEAT) await back.nextEvent('time_bank', (e) => e.data.seat === HUMAN_SEAT);
      expect(events(back).some((e) => e.type === 'hand.finished' || e.type === 'hand.started')).toBe(false);
      expect(snapshot.data.yourCards).toEqual(cards);
      const stacks = snapshot.data.seats.reduce((sum: number, s: any) => sum + s.stack, 0);
      const buyIns = snapshot.data.seats.reduce((sum: number, s: any) => sum + s.buyInTotal, 0);
      expect(stacks + snapshot.data.hand.pot).toBe(buyIns);
      // The acts of this hand are in the journal; those of hands before it went with their ends'
      // snapshots, which hold the table they left.
      expect(thisHand.length).toBeGreaterThan(0);
      expect(await journaledIds(server, tableId, 'table.act')).toEqual([...thisHand].sort());

      // The last acknowledged action, sent again, is answered as before and not taken twice.
      const again = await back.send('table.act', { action: 'fold' }, acknowledged[acknowledged.length - 1]);
      expect(again).toMatchObject({ status: 200, data: {} });
      expect((await new HttpApi(server.url).request('GET', `/api/tables/${code}`)).body.phase).toBe('playing');
      expect(await journaled(server, tableId, 'table.act')).toHaveLength(thisHand.length);
      back.close();
    }));
});
