import { SeatClient, GameEvent, HttpApi, nextEventFrom, Reply } from '@app/bot-kit';
import { WIRE_PROFILES, WireProfile } from '@app/protocol';

// This file plays one card table on a running server. The human and a spectator each watch it with
// one socket per profile, so every profile carries the same hands in the same run. The wire tool
// measures the recording, and the whole-table test checks it
// (apps/game-server/test/wire-profiles-cards.e2e-spec.ts).

export type Sockets = Record<WireProfile, SeatClient>;

/** What the human does in a hand: check or call to the end, fold at the first turn, or go all in. */
export type HumanPlan = 'passive' | 'fold' | 'all_in';

export interface TableOptions {
  /** How many whole hands are played after the sockets are open. */
  readonly hands: number;
  readonly seed: number;
  readonly bots: number;
  /** The plan for each hand number. By default the plans go passive, fold, all in, in turn. */
  readonly plan?: (hand: number) => HumanPlan;
  readonly timeoutMs?: number;
}

export interface TableRecording {
  readonly code: string;
  readonly seed: number;
  readonly bots: number;
  readonly human: Sockets;
  readonly spectator: Sockets;
  /**
   * The first of the hands counted, which run to `lastHand`. Every socket saw each counted hand
   * whole, from its hand.started to its standings.
   */
  readonly firstHand: number;
  readonly lastHand: number;
  /** The human's actions, in order, and the profile of the socket each was sent on. */
  readonly actions: readonly { hand: number; action: string; wire: WireProfile; status: number }[];
  readonly rebuys: number;
}

const DEFAULT_PLAN = (hand: number): HumanPlan => (['passive', 'fold', 'all_in'] as const)[hand % 3];

/**
 * Opens a table with a short hand pause and a long clock for the human. The table is then quiet
 * (waiting for the human) while the compared sockets open, so each of them starts from the same
 * snapshot. The human acts on each profile's socket in turn, so each socket carries its share of
 * replies. The human leaves after `hands` whole hands, and the server then closes every socket.
 */
export async function recordTable(baseUrl: string, options: TableOptions): Promise<TableRecording> {
  const api = new HttpApi(baseUrl);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const plan = options.plan ?? DEFAULT_PLAN;
  const opened = await api.request('POST', '/api/tables', {
    name: 'Ann',
    bots: options.bots,
    seed: options.seed,
    actionSeconds: 60,
    botThinkMs: [5, 20],
    handPauseMs: 50,
  });
  if (opened.status !== 201) throw new Error(`POST /api/tables answered ${opened.status}: ${JSON.stringify(opened.body)}`);
  const { code, playerToken } = opened.body;
  const { spectatorToken } = (await api.request('POST', `/api/tables/${code}/spectators`, {})).body;

  // A first socket makes the human present, which sends everyone a fresh snapshot. The compared
  // sockets open once the table waits for the human, and they stay the same from then on.
  const holder = await SeatClient.connect(baseUrl, playerToken, { timeoutMs });
  const holderCursor = { at: 0 };
  await nextEventFrom(holder, holderCursor, isHumanTurn, timeoutMs);
  const open = async (token: string): Promise<Sockets> => {
    const sockets = {} as Sockets;
    for (const wire of WIRE_PROFILES) {
      sockets[wire] = await SeatClient.connect(baseUrl, token, { wire, timeoutMs });
      await sockets[wire].nextEvent('table.snapshot');
    }
    return sockets;
  };
  const human = await open(playerToken);
  const spectator = await open(spectatorToken);
  const first = human.json.events[0].data.hand.number as number;
  const firstHand = first + 1;
  const lastHand = first + options.hands;

  const actions: { hand: number; action: string; wire: WireProfile; status: number }[] = [];
  let rebuys = 0;
  let hand = first;
  const cursor = { at: 0 };
  const turn = (e: GameEvent) => isHumanTurn(e) || e.type === 'standings' || e.type === 'hand.started';
  for (;;) {
    const e = await nextEventFrom(human.json, cursor, turn, timeoutMs);
    if (e.type === 'hand.started') {
      hand = e.data.number;
      continue;
    }
    if (e.type === 'standings') {
      if (hand >= lastHand) break;
      // A busted human buys in again between hands, so that the table goes on.
      if (e.data.seats.find((s: { human: boolean }) => s.human)?.stack === 0) {
        const reply = await human[WIRE_PROFILES[rebuys % WIRE_PROFILES.length]].send('table.rebuy');
        if (reply.status !== 200) throw new Error(`table.rebuy answered ${reply.status} ${reply.error?.code}`);
        rebuys++;
      }
      continue;
    }
    const wire = WIRE_PROFILES[actions.length % WIRE_PROFILES.length];
    const act = async (action: string): Promise<Reply> => {
      const reply = await human[wire].send('table.act', { action });
      actions.push({ hand, action, wire, status: reply.status });
      return reply;
    };
    const mine = plan(hand);
    let reply = await act(mine === 'passive' ? 'check' : mine);
    if (reply.status === 409 && reply.error?.code === 'illegal_action') reply = await act('call');
    if (reply.status !== 200) throw new Error(`table.act answered ${reply.status} ${reply.error?.code}`);
  }
  const left = await human.json.send('table.leave');
  if (left.status !== 200) throw new Error(`table.leave answered ${left.status}`);
  await Promise.all([holder, ...Object.values(human), ...Object.values(spectator)].map((c) => c.waitClosed()));
  return { code, seed: options.seed, bots: options.bots, human, spectator, firstHand, lastHand, actions, rebuys };
}

function isHumanTurn(e: GameEvent): boolean {
  return (e.type === 'time_bank' && e.data.seat === 0) || (e.type === 'table.snapshot' && e.data.hand?.toAct === 0);
}

/** The bytes a socket received during the counted hands, by kind (an event's type, or `reply`). */
export function bytesByKind(client: SeatClient, firstHand: number, lastHand: number): Record<string, number> {
  const from = client.decoded.findIndex((f) => f.type === 'hand.started' && (f as GameEvent).data.number === firstHand);
  const finished = client.decoded.findIndex((f) => f.type === 'hand.finished' && (f as GameEvent).data.number === lastHand);
  const to = client.decoded.findIndex((f, i) => i > finished && f.type === 'standings');
  if (from < 0 || finished < 0 || to < 0) throw new Error(`the socket did not see hands ${firstHand} to ${lastHand} whole`);
  const kinds: Record<string, number> = {};
  for (let i = from; i <= to; i++)
    kinds[client.decoded[i].type] = (kinds[client.decoded[i].type] ?? 0) + Buffer.byteLength(client.frames[i]);
  return kinds;
}

export interface BytesPerHand {
  readonly hands: number;
  /** The bytes per hand for each profile and viewer, by kind and in all. */
  readonly perHand: Record<WireProfile, { human: number; spectator: number; total: number; byKind: Record<string, number> }>;
}

/**
 * Works out the bytes per hand of each profile, on the human's and on a spectator's sockets, to
 * compare against JSON in the same run.
 */
export function bytesPerHand(recording: TableRecording): BytesPerHand {
  const hands = recording.lastHand - recording.firstHand + 1;
  const perHand = {} as BytesPerHand['perHand'];
  const round = (n: number) => Math.round((n / hands) * 10) / 10;
  for (const wire of WIRE_PROFILES) {
    const human = bytesByKind(recording.human[wire], recording.firstHand, recording.lastHand);
    const spectator = bytesByKind(recording.spectator[wire], recording.firstHand, recording.lastHand);
    const byKind: Record<string, number> = {};
    for (const kinds of [human, spectator]) for (const [k, n] of Object.entries(kinds)) byKind[k] = (byKind[k] ?? 0) + n;
    const sum = (kinds: Record<string, number>) => Object.values(kinds).reduce((a, b) => a + b, 0);
    perHand[wire] = {
      human: round(sum(human)),
      spectator: round(sum(spectator)),
      total: round(sum(byKind)),
      byKind: Object.fromEntries(Object.entries(byKind).map(([k, n]) => [k, round(n)])),
    };
  }
  return { hands, perHand };
}
