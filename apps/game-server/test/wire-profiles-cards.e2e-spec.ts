import { HUMAN_SEAT, privacyLeaks, truthFromFrames } from '@app/games/cards';
import { SeatClient, GameEvent, Reply } from '@app/bot-kit';
import { WIRE_PROFILES, WireProfile } from '@app/protocol';
import { compactStreamOf } from '../../../libs/games/cards/test/cards.wire';
import { RunningServer } from '../src/server';
import { withTestServer } from '../../../test/support/test-server';
import { decodeLines } from '../../wire/src/decode';
import { bytesPerHand, recordTable, TableRecording } from '../../wire/src/table-recording';

// Compact profiles on a card table (PROTOCOL.md sections 7 and 8): one table played over real
// sockets, watched by its human and a spectator with one socket per profile each.

const SEED = 7;
const BOTS = 5;
const HANDS = 9;

/** The string values anywhere in a frame (keys aside). */
function leaves(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** The events a socket got, decoded; its snapshots' `wire` (the socket's own profile) made comparable. */
function events(client: SeatClient): GameEvent[] {
  return client.decoded
    .filter((f): f is GameEvent => f.type !== 'reply')
    .map((e) =>
      e.type === 'table.snapshot' ? { ...e, data: { ...e.data, wire: 'compared', ...(e.seq === 1 ? { serverTime: 0 } : {}) } } : e,
    );
}

const truthOf = (frames: readonly GameEvent[]) => truthFromFrames(frames, SEED, BOTS + 1);

describe('wire profiles on a card table, over real sockets', () => {
  let server: RunningServer;
  let table: TableRecording;

  withTestServer((s) => (server = s));

  beforeAll(async () => {
    table = await recordTable(server.url, { hands: HANDS, seed: SEED, bots: BOTS });
  }, 60_000);

  it('plays hands with a showdown, a fold, an all-in and a rebuy, the human acting on every profile’s socket', () => {
    const json = events(table.human.json);
    const finished = json.filter((e) => e.type === 'hand.finished');
    expect(finished.some((e) => e.data.shown.length >= 2)).toBe(true);
    expect(finished.some((e) => e.data.shown.length === 0)).toBe(true);
    const actions = json.filter((e) => e.type === 'action.applied').map((e) => e.data.action);
    expect(actions).toEqual(expect.arrayContaining(['fold', 'all_in', 'call', 'check']));
    expect(table.rebuys).toBeGreaterThan(0);
    expect(new Set(table.actions.map((a) => a.wire))).toEqual(new Set(WIRE_PROFILES));
    expect(json[json.length - 1]).toMatchObject({ type: 'table.closed', data: { reason: 'left' } });
  });

  it.each(['human', 'spectator'] as const)(
    'each profile decodes to the %s’s JSON stream, frame for frame, less the frames that tell it nothing',
    (who) => {
      const sockets = table[who];
      const json = events(sockets.json);
      // The JSON stream carries every seat's deal; the compact ones only the viewer's own.
      const deals = json.filter((e) => e.type === 'hole_cards.dealt');
      expect(deals.filter((e) => e.data.cards === null).length).toBeGreaterThanOrEqual(HANDS * BOTS);
      for (const wire of WIRE_PROFILES) {
        const client = sockets[wire];
        expect([who, wire, client.decoded.find((f) => f.type === 'table.snapshot')?.data.wire]).toEqual([who, wire, wire]);
        expect([who, wire, events(client)]).toEqual([who, wire, wire === 'json' ? json : compactStreamOf(json)]);
        if (wire !== 'json') {
          const dealt = events(client).filter((e) => e.type === 'hole_cards.dealt');
          if (who === 'spectator') expect(dealt).toEqual([]);
          else expect(dealt.map((e) => [e.data.seat, e.data.cards.length])).toEqual(dealt.map(() => [HUMAN_SEAT, 2]));
          if (who === 'human') expect(dealt.length).toBeGreaterThanOrEqual(HANDS);
        }
        // `npm run wire -- decode` reads the same recording, one frame per line.
        expect(decodeLines(wire, client.frames.join('\n')).map((l) => JSON.parse(l))).toEqual(client.decoded);
      }
    },
  );

  it.each(['human', 'spectator'] as const)(
    'no profile sends the %s anything its JSON stream does not carry, and no hole card it may not see',
    (who) => {
      const sockets = table[who];
      const seat = who === 'human' ? HUMAN_SEAT : undefined;
      const truth = truthOf(events(sockets.json));
      expect(truth.size).toBeGreaterThanOrEqual(HANDS);
      for (const wire of WIRE_PROFILES) {
        const client = sockets[wire];
        expect([who, wire, privacyLeaks(events(client), truth, seat)]).toEqual([who, wire, []]);
        // Replies keep id and status on the wire, in every profile.
        const replies = client.decoded.flatMap((f, i) => (f.type === 'reply' ? [[f as Reply, JSON.parse(client.frames[i])] as const] : []));
        if (who === 'human') expect(replies.length).toBeGreaterThan(0);
        for (const [reply, raw] of replies) expect(raw).toMatchObject({ id: reply.id, status: reply.status });
        // Every string on this socket is one the viewer's JSON stream (or its own replies) carries.
        const allowed = leaves([sockets.json.decoded, client.decoded.filter((f) => f.type === 'reply')]);
        for (const word of [...new Set(events(sockets.json).map((e) => e.type)), 'reply', wire]) allowed.add(word);
        const extra = [...leaves(client.frames.map((f) => JSON.parse(f)))].filter((s) => !allowed.has(s));
        expect([who, wire, extra]).toEqual([who, wire, []]);
      }
    },
  );

  it('costs fewer bytes per hand: compact-v1 less than JSON, compact-v2 at most half, in the same run', () => {
    const { hands, perHand } = bytesPerHand(table);
    expect(hands).toBe(HANDS);
    const line = (wire: WireProfile) =>
      `${wire} ${perHand[wire].total} (human ${perHand[wire].human}, spectator ${perHand[wire].spectator})`;
    process.stdout.write(`bytes per hand, card table of ${BOTS + 1} (human and spectator): ${WIRE_PROFILES.map(line).join('; ')}\n`);
    expect(perHand['compact-v1'].total).toBeLessThan(perHand.json.total);
    expect(perHand['compact-v2'].total * 2).toBeLessThanOrEqual(perHand.json.total);
    for (const who of ['human', 'spectator'] as const) expect(perHand['compact-v2'][who] * 2).toBeLessThanOrEqual(perHand.json[who]);
  });
});
