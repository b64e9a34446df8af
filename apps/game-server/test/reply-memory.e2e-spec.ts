import { SeatClient, HttpApi, Reply } from '@app/bot-kit';
import { ServerProcess } from '../../../test/support/server-process';
import { seatRoom, SeatedRoom } from './support';
import { TEST_ADMIN_TOKEN, withTestServer } from '../../../test/support/test-server';
import { RunningServer } from '../src/server';

// docs/protocol.md section 15, "Replay memory": a room remembers the replies it acknowledged,
// within bounds in bytes per seat and per room, and answers a resent id the same before and after
// a restart. Proved from outside: a real server process, small bounds so that old ids are pushed
// out, a game finished (a snapshot) and a second one under way, then kill -9 and a restart. The
// property itself, over many random histories, is libs/room-engine/src/reply-recovery.spec.ts.

const WAIT_MS = 10_000;
const RIGHT = 1;
/**
 * Small enough that both bounds push ids out here: a trivia answer counts 124 to 129 bytes, so a
 * seat keeps its last 3 and the room its last 8 or so.
 */
const BOUNDS = { REPLY_MEMORY_ROOM_BYTES: '1024', REPLY_MEMORY_SEAT_BYTES: '400' };
/** Every command's 200 is what this test compares: a busy machine must not turn one into a 503. */
const BUDGET_MS = 10_000;

/** A type no game knows: a remembered id gets its original reply, any other a 404 that is not remembered either. */
const probe = (client: SeatClient, id: string) => client.send('probe.nothing', {}, id);

describe('reply memory across kill -9 of a real server process', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await ServerProcess.create({ env: { ...BOUNDS, COMMAND_TIMEOUT_MS: String(BUDGET_MS) } });
    await server.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it(
    'answers every resent id as it did before the kill: the remembered ones alike, the pushed-out, refused and ping ids not at all',
    () =>
      server.explainFailure(async () => {
        const api = new HttpApi(server.url);
        const questions = Array.from({ length: 10 }, (_, i) => ({
          text: `Question ${i + 1}?`,
          choices: ['north', 'east', 'south'],
          correct: RIGHT,
        }));
        const deck = await api.request('POST', '/api/decks', { name: 'Replies deck', questions });
        expect(deck.status).toBe(201);
        const room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], {
          deckId: deck.body.id,
          questionCount: 3,
          secondsPerQuestion: 30,
          revealSeconds: 0,
        });
        const [ann, bob, cy] = room.players;
        // Every id each seat sent, in order, with the reply it got.
        const sent: Sent = { host: [], ann: [], bob: [], cy: [] };
        const send = async (who: Seat, type: string, data: unknown, id: string) => {
          const reply = await { host: room.host, ann, bob, cy }[who].send(type, data, id);
          sent[who].push(reply);
          return reply;
        };

        // Game 1, to its end (a boundary: the room's snapshot), with refusals and pings on the way.
        expect((await send('host', 'room.start', {}, 'h-start-1')).status).toBe(200);
        for (let q = 0; q < 3; q++) {
          await ann.nextEvent('question.open', (e) => e.data.index === q);
          expect((await send('ann', 'room.answer', { question: q, choice: RIGHT }, `ann-g1-q${q}`)).status).toBe(200);
          expect((await send('ann', 'room.answer', { question: q, choice: 0 }, `ann-g1-again-q${q}`)).status).toBe(409);
          expect((await send('bob', 'ping', {}, `bob-ping-${q}`)).status).toBe(200);
          expect((await send('bob', 'room.answer', { question: q, choice: 0 }, `bob-g1-q${q}`)).status).toBe(200);
          expect((await send('cy', 'room.answer', { question: q, choice: RIGHT }, `cy-g1-q${q}`)).status).toBe(200);
        }
        await room.host.nextEvent('game.finished');
        expect((await send('ann', 'room.rematch', { vote: true }, 'ann-vote-1')).status).toBe(200);
        expect((await send('bob', 'room.rematch', { vote: true }, 'bob-vote-1')).status).toBe(200);
        expect((await send('cy', 'room.rematch', { vote: true }, 'cy-vote-1')).status).toBe(200);
        await room.host.nextEvent('room.state', (e) => e.data.phase === 'lobby');
        // Game 2, under way: what its journal holds after the snapshot.
        expect((await send('host', 'room.start', {}, 'h-start-2')).status).toBe(200);
        await ann.nextEvent('question.open', (e) => e.data.index === 0);
        expect((await send('bob', 'room.answer', { question: 0, choice: RIGHT }, 'bob-g2-q0')).status).toBe(200);
        expect((await send('cy', 'room.answer', { question: 0, choice: RIGHT }, 'cy-g2-q0')).status).toBe(200);
        expect((await send('ann', 'room.answer', { question: 0, choice: RIGHT }, 'ann-g2-q0')).status).toBe(200);
        await ann.nextEvent('question.open', (e) => e.data.index === 1);
        expect((await send('ann', 'room.answer', { question: 1, choice: RIGHT }, 'ann-g2-q1')).status).toBe(200);
        expect((await send('host', 'ping', {}, 'h-ping')).status).toBe(200);

        const before = await probeAll(room, sent);
        // The memory keeps the latest acknowledged ids and nothing else: no refusal, no ping, and not
        // the older answers. Ann's game-1 answers went past her seat's bound; Bob's and Cy's, and the
        // first start, past the room's, pushed out by the others' newer ids.
        expect(remembered(before)).toEqual({
          host: ['h-start-2'],
          ann: ['ann-vote-1', 'ann-g2-q0', 'ann-g2-q1'],
          bob: ['bob-vote-1', 'bob-g2-q0'],
          cy: ['cy-vote-1', 'cy-g2-q0'],
        });
        for (const who of SEATS)
          for (const [i, reply] of before[who].entries())
            expect(reply).toEqual(
              reply.status === 404 ? expect.objectContaining({ error: expect.objectContaining({ code: 'unknown_type' }) }) : sent[who][i],
            );
        const memoryBefore = (await roomDetail(server.url, room.code, server.adminToken)).replyMemory;
        expect(memoryBefore).toMatchObject({ seats: 4, ids: 8, inFlight: 0, sockets: 0 });
        expect(memoryBefore.bytes).toBeLessThanOrEqual(1024);

        await server.kill('SIGKILL');
        await Promise.all([room.host, ann, bob, cy].map((c) => c.waitClosed()));
        await server.restart();
        const back = await reconnect(server.url, room);

        // The same ids, the same answers: the snapshot's window and the journal after it.
        expect(await probeAll(back, sent)).toEqual(before);
        expect((await roomDetail(server.url, room.code, server.adminToken)).replyMemory).toEqual(memoryBefore);
        // A resent ping is answered afresh, with the server's time now.
        const ping = await back.players[1].send('ping', {}, 'bob-ping-0');
        expect(ping.status).toBe(200);
        expect(ping.data.serverTime).toBeGreaterThan(sent.bob.find((r) => r.id === 'bob-ping-0')!.data.serverTime);
        for (const c of [back.host, ...back.players]) c.close();
      }),
    90_000,
  );
});

describe('reply memory of spectators', () => {
  let server: RunningServer;
  withTestServer(
    (s) => {
      server = s;
    },
    { commandTimeoutMs: BUDGET_MS },
  );

  it("keeps nothing of a spectator's socket once it is gone, however much it sent", async () => {
    const room = await seatRoom(server, ['Ann']);
    const api = new HttpApi(server.url);
    expect((await room.players[0].send('ping', {}, 'ann-ping')).status).toBe(200);
    expect((await room.host.send('room.start', {}, 'h-start')).status).toBe(200);
    const watchers: SeatClient[] = [];
    for (let i = 0; i < 20; i++) {
      const w = await SeatClient.connect(server.url, (await api.spectate(room.code)).spectatorToken);
      await w.nextEvent('room.state');
      watchers.push(w);
    }
    for (const [i, w] of watchers.entries()) {
      for (let k = 0; k < 5; k++) {
        expect((await w.send('ping', {}, `w${i}-ping-${k}`)).status).toBe(200);
        expect((await w.send('room.answer', { question: 0, choice: 0 }, `w${i}-answer-${k}`)).status).toBe(403);
      }
    }
    // Only the host's start is remembered: no ping, no refusal, nothing of the spectators.
    expect((await roomDetail(server.url, room.code, TEST_ADMIN_TOKEN)).replyMemory).toMatchObject({
      seats: 1,
      ids: 1,
      inFlight: 0,
      sockets: 0,
    });
    for (const w of watchers) w.close();
    await Promise.all(watchers.map((w) => w.waitClosed()));
    expect((await roomDetail(server.url, room.code, TEST_ADMIN_TOKEN)).replyMemory).toMatchObject({
      seats: 1,
      ids: 1,
      inFlight: 0,
      sockets: 0,
    });
    for (const c of [room.host, ...room.players]) c.close();
  });
});

const SEATS = ['host', 'ann', 'bob', 'cy'] as const;
type Seat = (typeof SEATS)[number];
type Sent = Record<Seat, Reply[]>;

/** Each seat's ids sent again under a type nobody knows: what the room answers to each, in order. */
async function probeAll(room: Pick<SeatedRoom, 'host' | 'players'>, sent: Sent): Promise<Sent> {
  const clients = { host: room.host, ann: room.players[0], bob: room.players[1], cy: room.players[2] };
  const out: Sent = { host: [], ann: [], bob: [], cy: [] };
  for (const who of SEATS) for (const r of sent[who]) out[who].push(await probe(clients[who], r.id!));
  return out;
}

/** The ids each seat's memory answered with their original reply. */
function remembered(replies: Sent): Record<Seat, string[]> {
  return Object.fromEntries(SEATS.map((who) => [who, replies[who].filter((r) => r.status !== 404).map((r) => r.id!)])) as Record<
    Seat,
    string[]
  >;
}

async function reconnect(url: string, room: SeatedRoom): Promise<{ host: SeatClient; players: SeatClient[] }> {
  const connect = async (token: string) => {
    const client = await SeatClient.connect(url, token, { timeoutMs: WAIT_MS });
    await client.nextEvent('room.state');
    return client;
  };
  const host = await connect(room.hostToken);
  const players = [];
  for (const token of room.playerTokens) players.push(await connect(token));
  return { host, players };
}

async function roomDetail(url: string, code: string, adminToken: string): Promise<{ replyMemory: Record<string, number> }> {
  const res = await new HttpApi(url).request('GET', `/admin/api/rooms/${code}`, undefined, { authorization: `Bearer ${adminToken}` });
  expect(res.status).toBe(200);
  return res.body;
}
