import { Client } from 'pg';
import { DelayProxy, SeatClient, HttpApi } from '@app/bot-kit';
import { Options } from '../cli';
import { rawFilesNote } from '../report';
import { BenchRun, log } from '../run';
import { SustainedOutage, sustainedOutage, sustainedReport } from './outage-sustained';

/**
 * Takes PostgreSQL away while a game is on, either refused (the link is cut) or silent (packets are
 * held, as with a dead NAT or a failover in progress). The bench times what everyone is told
 * meanwhile: the answer whose statement is out, an answer queued behind it, a command that needs no
 * database, an HTTP request that does, and /health. After the link heals, it checks that nothing
 * that got 503 was recorded. Then a game plays through one long outage of each kind (`--refused-ms`,
 * `--silent-ms`, longer than the rooms' leases), and the bench counts the sockets closed, the
 * reconnects, the slowest reply, and whether every acknowledged answer was recorded. The mode runs
 * against the server it starts (`--server-cmd` picks the build), with a proxy of its own between
 * that server and PostgreSQL.
 */
export function outageMode(o: Options): (run: BenchRun, command: string) => Promise<void> {
  const trials = o.number('trials', 3, 1, 50);
  const holdMs = o.number('outage-ms', 6000, 500, 60_000);
  // These are issue 20's outages: 30 s refused and 20 s silent, each past the default 6 s lease. 0
  // skips an outage.
  const refusedMs = o.number('refused-ms', 30_000, 0, 600_000);
  const silentMs = o.number('silent-ms', 20_000, 0, 600_000);
  const title = o.string('title', `Outage: what a room and the HTTP API answer while PostgreSQL is refused or silent`);
  o.assertAllUsed();
  return (run, command) => runOutage(run, command, { trials, holdMs, title, refusedMs, silentMs });
}

interface Probe {
  readonly what: string;
  readonly ms: number;
  readonly result: string;
}

interface Trial {
  readonly kind: 'refused' | 'silent';
  readonly probes: Probe[];
  /** Answers that were refused with 503 and yet were in the answers table after the link healed. */
  readonly recordedAfter503: number;
}

type OutageParams = { trials: number; holdMs: number; title: string; refusedMs: number; silentMs: number };

async function runOutage(run: BenchRun, command: string, p: OutageParams): Promise<void> {
  await run.startDatabase();
  const direct = run.db!.directUrl;
  const target = new URL(direct);
  const proxy = new DelayProxy({ host: target.hostname, port: Number(target.port) }, 0);
  await proxy.start();
  run.databaseOverride = proxy.proxiedUrl(direct);
  try {
    await run.startServer();
    const trials: Trial[] = [];
    for (let i = 0; i < p.trials && !run.signal.aborted; i++) {
      for (const kind of ['refused', 'silent'] as const) {
        log(`trial ${i + 1} of ${p.trials}: PostgreSQL ${kind}`);
        trials.push(await trial(run.baseUrl, direct, proxy, kind, p.holdMs));
      }
    }
    const sustained: SustainedOutage[] = [];
    for (const [kind, ms] of [
      ['refused', p.refusedMs],
      ['silent', p.silentMs],
    ] as const) {
      if (ms <= 0 || run.signal.aborted) continue;
      log(`a game through ${ms / 1000} s of PostgreSQL ${kind}`);
      sustained.push(await sustainedOutage(run.baseUrl, direct, proxy, kind, ms));
    }
    run.writeFile(
      'report.md',
      [report(run, command, p, trials) + sustainedReport(sustained).join('\n'), '## Files', '', rawFilesNote(command), ''].join('\n'),
    );
    run.writeFile('summary.json', JSON.stringify({ trials, sustained }, null, 2) + '\n');
  } finally {
    proxy.restore();
    await run.stopServer();
    await proxy.stop();
  }
}

/** Waits, at most a minute, for `GET /health/ready` to answer 200. */
async function untilReady(baseUrl: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (
    (await fetch(`${baseUrl}/health/ready`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > until) throw new Error(`${baseUrl} was not ready within a minute`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function trial(baseUrl: string, directUrl: string, proxy: DelayProxy, kind: Trial['kind'], holdMs: number): Promise<Trial> {
  const api = new HttpApi(baseUrl);
  // The server writes nothing until its heartbeat has found PostgreSQL back after the previous trial,
  // and a room opened sooner gets 503. So the trial starts once the server says it is ready.
  await untilReady(baseUrl);
  const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 60, revealSeconds: 0 });
  const seats = [await api.join(room.code, 'Ann'), await api.join(room.code, 'Bob'), await api.join(room.code, 'Cy')];
  const timeoutMs = holdMs + 30_000;
  const host = await SeatClient.connect(baseUrl, room.hostToken, { timeoutMs });
  const players = await Promise.all(seats.map((s) => SeatClient.connect(baseUrl, s.playerToken, { timeoutMs })));
  await host.nextEvent('room.state');
  await host.send('room.start', {}, 'start');
  await host.nextEvent('question.open');

  if (kind === 'refused') proxy.cutAll();
  else proxy.blackHole();
  const timed = async (what: string, work: () => Promise<string>): Promise<Probe> => {
    const started = performance.now();
    const result = await work().catch((err: Error) => `error: ${err.message}`);
    return { what, ms: Math.round((performance.now() - started) * 10) / 10, result };
  };
  const reply = (r: { status: number; error?: { code: string } }) => `${r.status}${r.error ? ` ${r.error.code}` : ''}`;
  const http = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return String(res.status);
  };
  const probes = Promise.all([
    timed('room.answer (its statement is the one out)', async () =>
      reply(await players[0].send('room.answer', { question: 0, choice: 0 }, 'ann-0')),
    ),
    timed('room.answer (queued behind it)', async () => reply(await players[1].send('room.answer', { question: 0, choice: 1 }, 'bob-0'))),
    timed('room.start (needs no database: 409)', async () => reply(await host.send('room.start', {}, 'start-again'))),
    timed('ping', async () => reply(await players[2].send('ping', {}, 'ping-0'))),
    timed('POST /api/rooms', () =>
      http('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hostName: 'X' }) }),
    ),
    timed('GET /health', () => http('/health')),
  ]);
  // The outage lasts `holdMs`, whatever the answers. What got 503 must not be recorded when it ends.
  const [done] = await Promise.all([probes, new Promise((r) => setTimeout(r, holdMs))]);
  proxy.restore();
  // Cy answers after the outage, so its statement follows anything that was still on its way.
  await players[2].send('room.answer', { question: 0, choice: 2 }, 'cy-0').catch(() => undefined);
  const refused = done.filter((d) => d.what.startsWith('room.answer') && d.result.startsWith('503')).length;
  const db = new Client({ connectionString: directUrl });
  await db.connect();
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM room_journal
     WHERE room_id = $1 AND kind = 'command' AND body->>'type' = 'room.answer' AND command_id IN ('ann-0', 'bob-0')`,
    [room.roomId],
  );
  await db.end();
  for (const c of [host, ...players]) c.close();
  return { kind, probes: done, recordedAfter503: Math.max(0, rows[0].n - (2 - refused)) };
}

function report(run: BenchRun, command: string, p: OutageParams, trials: Trial[]): string {
  const lines = [`# ${p.title}`, '', '```', command, '```', ''];
  lines.push(
    `Server: \`${run.server?.command.join(' ')}\`, build from \`/health\` is in server.log. ${p.trials} trial(s) per kind; each outage lasts ${p.holdMs} ms.`,
    'Times are from the bench sending the frame or request to its reply, in ms (the largest over the trials, and every result seen).',
    '',
  );
  for (const kind of ['refused', 'silent'] as const) {
    const mine = trials.filter((t) => t.kind === kind);
    if (!mine.length) continue;
    lines.push(`## PostgreSQL ${kind}`, '', '| what | slowest reply, ms | results |', '|---|---:|---|');
    for (const what of mine[0].probes.map((x) => x.what)) {
      const seen = mine.map((t) => t.probes.find((x) => x.what === what)!);
      lines.push(`| ${what} | ${Math.max(...seen.map((s) => s.ms))} | ${[...new Set(seen.map((s) => s.result))].join(', ')} |`);
    }
    lines.push('', `Answers refused with 503 yet recorded after the link healed: ${mine.reduce((n, t) => n + t.recordedAfter503, 0)}.`, '');
  }
  return lines.join('\n') + '\n';
}
