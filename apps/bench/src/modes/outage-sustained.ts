import { Client } from 'pg';
import { DelayProxy, SeatClient, HttpApi, Reply } from '@app/bot-kit';

/** What a game of five clients saw through one long outage (issue 20's "Done means"). */
export interface SustainedOutage {
  readonly kind: 'refused' | 'silent';
  readonly holdMs: number;
  /** Commands sent while PostgreSQL was away, and how they were answered. */
  readonly sentDuring: number;
  readonly statusesDuring: Record<string, number>;
  /** The slowest reply to a command sent while PostgreSQL was away, in ms. */
  readonly slowestDuringMs: number;
  /** The three slowest of them: which command, its reply, and when it was sent (in ms into the outage). */
  readonly slowest: readonly { readonly type: string; readonly status: number | 'none'; readonly ms: number; readonly sentAtMs: number }[];
  /** Commands that got no reply at all by the end of the run. */
  readonly unanswered: number;
  /** Sockets the server closed, and the reconnects they needed. */
  readonly socketsClosed: number;
  readonly reconnects: number;
  /** The time from the restore to the first answer acknowledged after it, in ms. */
  readonly firstAnswerAfterMs: number | null;
  readonly gameFinished: boolean;
  /** Answers acknowledged with 200, and how many of them the database has. */
  readonly acknowledged: number;
  readonly recorded: number;
}

/** Each client sends a command this often: an answer until one is acknowledged, and otherwise a ping. */
const EVERY_MS = 200;
/** The bench never waits longer than this for a reply. A reply that takes longer counts as unanswered. */
const REPLY_TIMEOUT_MS = 15_000;

interface Seat {
  client: SeatClient;
  readonly token: string;
  question: number;
  /** The question indexes for which this seat's answer was acknowledged. */
  readonly acked: Set<number>;
}

/**
 * Plays a room of a host and four players on while PostgreSQL is away for `holdMs`. Each client
 * sends a command every 200 ms throughout. It sends pings until the outage starts (a second into the
 * first question), then answers until each is acknowledged, and pings otherwise. While PostgreSQL is
 * away, the answers are refused with 503 and retried under the same id. The mode counts what the
 * server closed and what it never answered, then lets the game finish and checks that every
 * acknowledged answer is in the database.
 */
export async function sustainedOutage(
  baseUrl: string,
  directUrl: string,
  proxy: DelayProxy,
  kind: SustainedOutage['kind'],
  holdMs: number,
): Promise<SustainedOutage> {
  const api = new HttpApi(baseUrl);
  const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 120, revealSeconds: 0 });
  const tokens = [room.hostToken];
  for (const name of ['Ann', 'Bob', 'Cy', 'Dee']) tokens.push((await api.join(room.code, name)).playerToken);
  let socketsClosed = 0;
  let reconnects = 0;
  let stopped = false;
  const connect = async (token: string): Promise<SeatClient> => {
    const client = await SeatClient.connect(baseUrl, token, { timeoutMs: REPLY_TIMEOUT_MS });
    await client.nextEvent('room.state');
    return client;
  };
  const seats: Seat[] = [];
  for (const token of tokens) seats.push({ client: await connect(token), token, question: 0, acked: new Set() });
  const [host, ...players] = seats;
  // A socket that the server closes is opened again, as a page would, and counted.
  const watch = (seat: Seat) => {
    void seat.client.closed.then(async () => {
      if (stopped) return;
      socketsClosed++;
      for (;;) {
        reconnects++;
        try {
          seat.client = await connect(seat.token);
          return watch(seat);
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
        if (stopped) return;
      }
    });
  };
  seats.forEach(watch);
  await host.client.send('room.start', {}, 'start');

  let outage: { from: number; to?: number } | undefined;
  let firstAnswerAfterMs: number | null = null;
  const during: { type: string; ms: number; status: number | 'none'; sentAtMs: number }[] = [];
  let unanswered = 0;
  let finished = false;
  const send = async (seat: Seat, type: string, data: unknown, id?: string): Promise<Reply | undefined> => {
    const sentAt = performance.now();
    const inOutage = outage !== undefined && outage.to === undefined;
    const reply = await seat.client.send(type, data, id).catch(() => undefined);
    const ms = performance.now() - sentAt;
    if (!reply) unanswered++;
    if (inOutage)
      during.push({ type, ms: Math.round(ms * 10) / 10, status: reply?.status ?? 'none', sentAtMs: Math.round(sentAt - outage!.from) });
    return reply;
  };
  const play = async (seat: Seat, player: boolean) => {
    while (!stopped && !finished) {
      const next = new Promise((r) => setTimeout(r, EVERY_MS));
      const open = player ? seat.client.events.filter((e) => e.type === 'question.open').at(-1)?.data.index : undefined;
      if (open !== undefined) seat.question = open;
      // Nobody answers before the outage, so the whole game is played through the outage and after it.
      if (player && outage !== undefined && open !== undefined && !seat.acked.has(seat.question)) {
        const q = seat.question;
        const reply = await send(seat, 'room.answer', { question: q, choice: q % 2 }, `${seat.token.slice(-8)}-q${q}`);
        if (reply?.status === 200) {
          seat.acked.add(q);
          if (outage?.to !== undefined && firstAnswerAfterMs === null) firstAnswerAfterMs = performance.now() - outage.to;
        }
      } else {
        await send(seat, 'ping', {});
      }
      if (seat.client.events.some((e) => e.type === 'game.finished')) finished = true;
      await next;
    }
  };
  const loops = seats.map((s, i) => play(s, i > 0));
  await host.client.nextEvent('question.open');
  // Play a little before the outage, then hold the outage for `holdMs`, then play to the end.
  await new Promise((r) => setTimeout(r, 1000));
  outage = { from: performance.now() };
  if (kind === 'refused') proxy.cutAll();
  else proxy.blackHole();
  await new Promise((r) => setTimeout(r, holdMs));
  proxy.restore();
  outage.to = performance.now();
  const until = performance.now() + 60_000;
  while (!finished && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
  stopped = true;
  await Promise.all(loops);
  for (const s of seats) s.client.close();

  const acknowledged = players.reduce((n, p) => n + p.acked.size, 0);
  const db = new Client({ connectionString: directUrl });
  await db.connect();
  // The answers of a game that finished are in its record, because its finish cut the journal. The
  // answers of a game still on are in the journal.
  const { rows } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM finished_games f, jsonb_array_elements(f.summary->'questions') q, jsonb_array_elements(q->'answers') a WHERE f.room_id = $1)::int
          + (SELECT count(*) FROM room_journal WHERE room_id = $1 AND kind = 'command' AND body->>'type' = 'room.answer')::int AS n`,
    [room.roomId],
  );
  await db.end();
  const statusesDuring: Record<string, number> = {};
  for (const d of during) statusesDuring[String(d.status)] = (statusesDuring[String(d.status)] ?? 0) + 1;
  return {
    kind,
    holdMs,
    sentDuring: during.length,
    statusesDuring,
    slowestDuringMs: Math.max(0, ...during.map((d) => d.ms)),
    slowest: [...during].sort((a, b) => b.ms - a.ms).slice(0, 3),
    unanswered,
    socketsClosed,
    reconnects,
    firstAnswerAfterMs: firstAnswerAfterMs === null ? null : Math.round(firstAnswerAfterMs),
    gameFinished: finished,
    acknowledged,
    recorded: rows[0].n,
  };
}

/** The report's section for the sustained outages. */
export function sustainedReport(outages: readonly SustainedOutage[]): string[] {
  if (!outages.length) return [];
  const lines = [
    '## A game through a long outage',
    '',
    'A host and four players, each sending a command every 200 ms: pings until the outage starts (a second into the first question), then an answer until it is acknowledged (under the same id when retried), a ping otherwise. The whole game is played from the outage on.',
    '',
    '| PostgreSQL | outage, s | commands sent during it | their replies | slowest reply, ms | no reply | sockets closed | reconnects | first answer 200 after the restore, ms | game finished | answers acknowledged / recorded |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const o of outages) {
    const statuses = Object.entries(o.statusesDuring)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    lines.push(
      `| ${o.kind} | ${o.holdMs / 1000} | ${o.sentDuring} | ${statuses} | ${o.slowestDuringMs} | ${o.unanswered} | ${o.socketsClosed} | ${o.reconnects} | ${o.firstAnswerAfterMs ?? '-'} | ${o.gameFinished ? 'yes' : 'no'} | ${o.acknowledged} / ${o.recorded} |`,
    );
  }
  lines.push('');
  return lines;
}
