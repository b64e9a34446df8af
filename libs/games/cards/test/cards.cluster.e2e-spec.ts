import { Client } from 'pg';
import { HUMAN_SEAT, privacyLeaks, truthFromFrames } from '@app/games/cards';
import { ClusterScript, GameEvent, HttpApi, nextEventFrom, SeatClient } from '@app/bot-kit';
import { checkOrCall, untilSecondTurn } from './cards.turns';
import { startTestCluster } from '../../../../test/support/test-cluster';

jest.setTimeout(180_000);

const SEED = 4242;
const BOTS = 3;
// The bots and hands are quick and the clock is long, so the human's turn outlasts the failover.
const TABLE = { name: 'Ann', bots: BOTS, seed: SEED, actionSeconds: 120, botThinkMs: [5, 20], handPauseMs: 50 };
// Time enough, on a busy machine, for a lease (LEASE_SECONDS) to run out and for the proxy's health checks to fail.
const FAILOVER_TIMEOUT_MS = 60_000;
// A bot's think and a hand's pause take milliseconds, so the human's turn comes well within this.
const TURN_TIMEOUT_MS = 30_000;

const events = (c: SeatClient) => c.decoded.filter((f): f is GameEvent => f.type !== 'reply');
const sum = (xs: readonly { stack: number }[]) => xs.reduce((n, x) => n + x.stack, 0);

// This test runs a card table behind the proxy (PROTOCOL.md sections 8 and 10). The instance that
// owns it dies by kill -9 mid-hand, and the table goes on on another instance. Nothing acknowledged
// is lost, and no hole card is shown to anyone before its time.
describe('a card table through the proxy, on a cluster of three', () => {
  let cluster: ClusterScript;
  beforeAll(async () => {
    cluster = await startTestCluster(3);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** The table's acknowledged human actions that the cluster's journal holds, by id. */
  async function journaledActs(tableId: string): Promise<string[]> {
    const db = new Client({ connectionString: cluster.databaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT command_id AS id FROM room_journal WHERE room_id = $1 AND kind = 'command' AND body->>'type' = 'table.act'`,
        [tableId],
      );
      return rows.map((r: { id: string }) => r.id).sort();
    } finally {
      await db.end();
    }
  }

  const holders = async (code: string) =>
    [...(await cluster.roomsByInstance())].filter(([, codes]) => codes.has(code)).map(([name]) => name);

  it('goes on mid-hand after kill -9 of its owner: every acknowledged action kept, hole cards private, chips conserved', async () => {
    const proxy = new HttpApi(cluster.proxy);
    const opened = await proxy.request('POST', '/api/tables', TABLE);
    expect(opened.status).toBe(201);
    const { code, tableId, playerToken } = opened.body;
    const spectated = await proxy.request('POST', `/api/tables/${code}/spectators`, {});
    expect(spectated.status).toBe(201);
    const { spectatorToken } = spectated.body;
    const connect = (token: string) => SeatClient.connect(cluster.proxy, token, { room: code, timeoutMs: TURN_TIMEOUT_MS });
    const human = await connect(playerToken);
    const spectator = await connect(spectatorToken);
    const first = await human.nextEvent('table.snapshot');
    await spectator.nextEvent('table.snapshot');

    // The human acts once in a hand (a check, or else a call), and the owner dies at the human's next
    // turn in that same hand.
    const { hand, acknowledged, thisHand, cards } = await untilSecondTurn(human, first, TURN_TIMEOUT_MS);
    expect(cards).toHaveLength(2);
    expect(thisHand.length).toBeGreaterThan(0);

    const [owner] = await holders(code);
    expect(await holders(code)).toEqual([owner]);
    const killedAt = performance.now();
    process.kill(cluster.member(owner).pid, 'SIGKILL');
    await Promise.all([human.closed, spectator.closed]);

    // Each seat keeps reconnecting through the proxy with the token it has, until the table is served again.
    const reconnect = async (token: string) => {
      for (;;) {
        try {
          const client = await connect(token);
          const snapshot = await Promise.race([client.nextEvent('table.snapshot'), client.closed.then(() => undefined)]);
          if (snapshot) return { client, snapshot };
          client.close();
        } catch {
          // Either the proxy still tries the dead instance, or the table's lease has not run out yet.
        }
        if (performance.now() - killedAt > FAILOVER_TIMEOUT_MS)
          throw new Error(`the table was not served again within ${FAILOVER_TIMEOUT_MS} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const [back, watching] = await Promise.all([reconnect(playerToken), reconnect(spectatorToken)]);
    const [newOwner] = await holders(code);
    expect(newOwner).toBeDefined();
    expect(newOwner).not.toBe(owner);
    expect(await holders(code)).toEqual([newOwner]);

    // The hand is the same, the human's cards are the same, and the chips are conserved: the stacks
    // and the pot add up to the buy-ins.
    const snapshot = back.snapshot.data;
    expect(snapshot.hand.number).toBe(hand);
    expect(snapshot.yourCards).toEqual(cards);
    expect(sum(snapshot.seats) + snapshot.hand.pot).toBe(snapshot.seats.reduce((n: number, s: any) => n + s.buyInTotal, 0));
    expect(watching.snapshot.data.hand.number).toBe(hand);
    expect(watching.snapshot.data.yourCards).toBeUndefined();
    // The acts of this hand are in the journal. Those of earlier hands were cut with the snapshots
    // taken at those hands' ends.
    expect(await journaledActs(tableId)).toEqual([...thisHand].sort());

    // The bots' actions since the human's last one were not written, so they are taken again and the
    // turn comes back to the human. The last acknowledged action, sent again under its id, gets its
    // original reply and is not taken again. The fold it now carries changes nothing, and the human
    // still acts in this hand.
    if (snapshot.hand.toAct !== HUMAN_SEAT) await back.client.nextEvent('time_bank', (e) => e.data.seat === HUMAN_SEAT);
    expect(await back.client.send('table.act', { action: 'fold' }, acknowledged[acknowledged.length - 1])).toMatchObject({
      status: 200,
      data: {},
    });
    const reply = await checkOrCall(back.client, `after-${hand}`);
    expect(reply.status).toBe(200);
    console.log(
      `failover: kill -9 of ${owner} to the human's first action committed on ${newOwner}: ${Math.round(performance.now() - killedAt)} ms`,
    );
    expect(await journaledActs(tableId)).toEqual([...thisHand, reply.id!].sort());

    // The hand plays out on the new owner, with the human checking or calling at each turn, and its
    // end has the same chips. Events are read from the reply onwards, because the turn the reply
    // answered was already taken.
    const afterCursor = { at: back.client.decoded.findIndex((f) => f.type === 'reply' && (f as { id?: string }).id === reply.id) + 1 };
    expect(afterCursor.at).toBeGreaterThan(0);
    for (;;) {
      const next = await nextEventFrom(
        back.client,
        afterCursor,
        (e) => e.type === 'hand.finished' || (e.type === 'time_bank' && e.data.seat === HUMAN_SEAT),
        TURN_TIMEOUT_MS,
      );
      if (next.type === 'hand.finished') {
        expect(next.data.number).toBe(hand);
        expect(next.data.stacks).toHaveLength(BOTS + 1);
        expect(sum(next.data.stacks)).toBe(sum(snapshot.seats) + snapshot.hand.pot);
        break;
      }
      expect((await checkOrCall(back.client)).status).toBe(200);
    }
    await watching.client.nextEvent('hand.finished', (e) => e.data.number === hand);

    // No frame, on either instance, showed the human a bot's hole cards, or the spectator any
    // hole card, before the showdown.
    const humanSaw = [...events(human), ...events(back.client)];
    const spectatorSaw = [...events(spectator), ...events(watching.client)];
    const truth = truthFromFrames(humanSaw, SEED, BOTS + 1);
    expect(privacyLeaks(humanSaw, truth, HUMAN_SEAT)).toEqual([]);
    expect(privacyLeaks(spectatorSaw, new Map([...truthFromFrames(spectatorSaw, SEED, BOTS + 1), ...truth]), undefined)).toEqual([]);
    expect(spectatorSaw.some((e) => e.type === 'hole_cards.dealt' && e.data.cards !== null)).toBe(false);
    back.client.close();
    watching.client.close();
  });
});
