import { CommandRecord } from '@app/bot-kit';
import { UsageReading } from '../host-usage';
import { linePlot, stackPlots } from '../plot-svg';
import {
  Check,
  checksSection,
  clientRows,
  clientTable,
  confoundsSection,
  distancesSection,
  fmtMs,
  fmtNum,
  fmtRatio,
  isError,
  latencies,
  rawFilesNote,
  serverMean,
  serverSection,
  table,
  usageText,
  JOURNAL_APPEND,
} from '../report';
import { BenchRun } from '../run';
import { summarize, Summary } from '../stats';
import { KindCount } from '../tables-shard';
import { Distances } from '../yardstick';
import { CellRun, TablesSettings } from './tables-result';

/** The seed's figures (from the card-table field report), quoted beside ours. */
export const SEED = { tables: 1000, actionP99Ms: 1.2, workerThreads: 2, jsonMbps: 4.07 } as const;
/** The goal for our figures: this many tables within this action p99, with every human action durable. */
export const GOAL = { tables: 2000, actionP99Ms: 10 } as const;

// A human's `table.act` sends one statement on its path: the journal's append. A hand's end that no
// action carried is written by a `JournalRepository.record` of its own.
const ACT_STATEMENTS = [JOURNAL_APPEND];
// prom-client samples the server's event loop every 10 ms, and its figures include that interval.
const SERVER_LOOP_RESOLUTION_MS = 10;

/** One cell (a rung with a profile) as it goes into summary.json and the report. */
export interface CellSummary {
  readonly tables: number;
  readonly wire: string;
  /** The profiles that the server's first snapshots named, by count. They should all be `wire`. */
  readonly grantedWire: Record<string, number>;
  readonly egressMbps: number | null;
  readonly shards: number;
  readonly rampSeconds: number;
  readonly window: { readonly start: string; readonly end: string; readonly seconds: number };
  readonly tablesOpened: number;
  readonly seatedAtWindowStart: number;
  readonly seatedAtWindowEnd: number;
  readonly actions: Summary & {
    readonly statuses: Record<string, number>;
    readonly timeouts: number;
    readonly noReply: number;
    readonly errors: number;
  };
  readonly handsCompleted: number;
  readonly frames: number;
  readonly bytes: number;
  readonly byKind: Record<string, KindCount>;
  readonly bytesPerHand: number | null;
  readonly framesPerHand: number | null;
  /** Application payload the bench's sockets received, in Mbit/s over the window. */
  readonly mbps: number;
  readonly evictions: { readonly client4009: number; readonly server: Record<string, number> | null; readonly total: number };
  readonly closeCodes: Record<string, { inWindow: number; total: number }>;
  readonly server: {
    readonly refused: string | null;
    readonly outboundBytes: number | null;
    readonly outboundFrames: number | null;
    readonly byKind: Record<string, KindCount> | null;
    readonly actMeanMs: number | null;
    readonly roundTripsPerAct: number | null;
    readonly cpuPercent: number | null;
    /** Taken from the server's /metrics (prom-client's nodejs_eventloop_lag_*), less its 10 ms sampling interval. */
    readonly loopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number } | null;
  };
  readonly postgresCpuPercent: number | null;
  readonly machineCpuPercent: number | null;
  readonly bench: {
    readonly shards: readonly {
      readonly shard: number;
      readonly tables: number;
      readonly cpuPercent: number;
      readonly loopDelayMs: { p50: number; p99: number; max: number };
    }[];
    /** The coordinator's usage, which includes the shaper that runs in it. */
    readonly coordinator: { readonly cpuPercent: number | null; readonly loopDelayMs: { p50: number; p99: number; max: number } };
    readonly cpuPercentTotal: number;
    readonly loopDelayP99MaxMs: number;
  };
  readonly shaper: {
    readonly deliveredBytes: number;
    readonly maxHeldBytes: number;
    readonly pauses: number;
    readonly mbps: number;
  } | null;
  readonly failures: number;
  readonly failureSamples: readonly string[];
  readonly shardErrors: readonly string[];
  readonly unresolved: number;
  readonly interrupted: boolean;
}

export function cellSummary(c: CellRun, records: readonly CommandRecord[], s: TablesSettings): CellSummary {
  const seconds = (c.windowEnd - c.windowStart) / 1000;
  const acts = records.filter(
    (r) => r.type === 'table.act' && r.rung === c.tables && r.wire === c.wire && r.sentAt >= c.windowStart && r.sentAt < c.windowEnd,
  );
  const row = clientRows(acts)[0];
  const byKind: Record<string, KindCount> = {};
  const closeCodes: Record<string, { inWindow: number; total: number }> = {};
  const granted: Record<string, number> = {};
  let hands = 0;
  for (const r of c.results) {
    for (const [k, v] of Object.entries(r.byKind)) {
      const e = (byKind[k] ??= { frames: 0, bytes: 0 });
      e.frames += v.frames;
      e.bytes += v.bytes;
    }
    for (const [k, v] of Object.entries(r.closes)) {
      const e = (closeCodes[k] ??= { inWindow: 0, total: 0 });
      e.inWindow += v.inWindow;
      e.total += v.total;
    }
    for (const [k, v] of Object.entries(r.grantedWire)) granted[k] = (granted[k] ?? 0) + v;
    hands += r.handsFinished;
  }
  const frames = Object.values(byKind).reduce((t, k) => t + k.frames, 0);
  const bytes = Object.values(byKind).reduce((t, k) => t + k.bytes, 0);
  const d = c.figures.delta;
  const serverEvictions = d ? Object.fromEntries(d.counterBy('game_ws_evictions_total', 'reason').map((e) => [e.key, e.value])) : null;
  const serverByKind: Record<string, KindCount> | null = d ? {} : null;
  if (d && serverByKind) {
    for (const b of d.counterBy('game_ws_outbound_bytes_total', 'kind')) (serverByKind[b.key] ??= { frames: 0, bytes: 0 }).bytes = b.value;
    for (const f of d.counterBy('game_ws_outbound_frames_total', 'kind'))
      (serverByKind[f.key] ??= { frames: 0, bytes: 0 }).frames = f.value;
  }
  const act = serverMean(d, 'table.act');
  const trips = d ? ACT_STATEMENTS.reduce((t, st) => t + d.value('game_db_round_trips_total', { statement: st }), 0) : undefined;
  const loop = c.figures.delta && c.after ? serverLoopDelay(c.after) : null;
  const client4009 = closeCodes['4009']?.inWindow ?? 0;
  const serverTotal = serverEvictions ? Object.values(serverEvictions).reduce((t, v) => t + v, 0) : 0;
  const shardRows = c.results.map((r) => ({
    shard: r.shard,
    tables: r.tables,
    cpuPercent: (r.cpuSeconds / Math.max(1e-9, r.wallSeconds)) * 100,
    loopDelayMs: r.loopDelay,
  }));
  const coordinatorCpu = c.usage.cpuPercent.bench ?? null;
  const shaper = c.shaper
    ? {
        deliveredBytes: c.shaper.after.deliveredBytes - c.shaper.before.deliveredBytes,
        maxHeldBytes: c.shaper.after.maxHeldBytes,
        pauses: c.shaper.after.pauses - c.shaper.before.pauses,
        mbps: ((c.shaper.after.deliveredBytes - c.shaper.before.deliveredBytes) * 8) / seconds / 1e6,
      }
    : null;
  return {
    tables: c.tables,
    wire: c.wire,
    grantedWire: granted,
    egressMbps: s.egressMbps ?? null,
    shards: c.shards,
    rampSeconds: c.rampSeconds,
    window: { start: new Date(c.windowStart).toISOString(), end: new Date(c.windowEnd).toISOString(), seconds },
    tablesOpened: c.results.reduce((t, r) => t + r.tablesOpened, 0),
    seatedAtWindowStart: c.results.reduce((t, r) => t + r.seatedAtWindowStart, 0),
    seatedAtWindowEnd: c.results.reduce((t, r) => t + r.seatedAtWindowEnd, 0),
    actions: {
      ...(row?.summary ?? summarize([])),
      statuses: row?.statuses ?? {},
      timeouts: row?.timedOut ?? 0,
      noReply: row?.noReply ?? 0,
      errors: acts.filter(isError).length,
    },
    handsCompleted: hands,
    frames,
    bytes,
    byKind,
    bytesPerHand: hands ? bytes / hands : null,
    framesPerHand: hands ? frames / hands : null,
    mbps: (bytes * 8) / seconds / 1e6,
    evictions: { client4009, server: serverEvictions, total: Math.max(client4009, serverTotal) },
    closeCodes,
    server: {
      refused: c.figures.refused ?? null,
      outboundBytes: d ? d.value('game_ws_outbound_bytes_total') : null,
      outboundFrames: d ? d.value('game_ws_outbound_frames_total') : null,
      byKind: serverByKind,
      actMeanMs: act.meanMs ?? null,
      roundTripsPerAct: trips !== undefined && act.n ? trips / act.n : null,
      cpuPercent: c.serverCpuSeconds !== undefined ? (c.serverCpuSeconds / seconds) * 100 : null,
      loopDelayMs: loop,
    },
    postgresCpuPercent: c.usage.cpuPercent.postgres ?? null,
    machineCpuPercent: c.usage.cpuPercent.machine ?? null,
    bench: {
      shards: shardRows,
      coordinator: { cpuPercent: coordinatorCpu, loopDelayMs: c.usage.loopDelay },
      cpuPercentTotal: shardRows.reduce((t, r) => t + r.cpuPercent, 0) + (coordinatorCpu ?? 0),
      loopDelayP99MaxMs: Math.max(c.usage.loopDelay.p99, ...shardRows.map((r) => r.loopDelayMs.p99)),
    },
    shaper,
    failures: c.results.reduce((t, r) => t + r.failures, 0),
    failureSamples: [...new Set(c.results.flatMap((r) => r.failureSamples))].slice(0, 5),
    shardErrors: c.shardErrors,
    unresolved: c.results.reduce((t, r) => t + r.unresolved, 0),
    interrupted: c.interrupted,
  };
}

/** The server's event-loop delay over the window, from prom-client's gauges at the scrape that closed the window. */
function serverLoopDelay(after: import('@app/bot-kit').MetricsSnapshot): { p50: number; p99: number; max: number } | null {
  const g = (name: string) => after.samples.find((x) => x.name === name)?.value;
  const p50 = g('nodejs_eventloop_lag_p50_seconds');
  const p99 = g('nodejs_eventloop_lag_p99_seconds');
  const max = g('nodejs_eventloop_lag_max_seconds');
  if (p50 === undefined || p99 === undefined || max === undefined) return null;
  const ms = (s: number) => Math.max(0, s * 1000 - SERVER_LOOP_RESOLUTION_MS);
  return { p50: ms(p50), p99: ms(p99), max: ms(max) };
}

/** Where a profile's ladder broke, by the stated rule. */
export interface Knee {
  readonly wire: string;
  /** The first rung that broke the rule, or null when none did. */
  readonly kneeTables: number | null;
  readonly why: string | null;
  /** The highest rung below the knee. Every rung up to it held. */
  readonly heldTables: number | null;
}

export function kneeRule(s: TablesSettings): string {
  return `the first rung where \`table.act\` client p99 exceeds ${fmtNum(s.kneeMs)} ms, or any socket is evicted (4009 on the bench's side or \`game_ws_evictions_total\` on the server's), or any \`table.act\` in the window fails (non-2xx, no reply, timeout)`;
}

export function kneesOf(summaries: readonly CellSummary[], s: TablesSettings): Knee[] {
  return s.wires.map((wire) => {
    const cells = summaries.filter((c) => c.wire === wire).sort((a, b) => a.tables - b.tables);
    let held: number | null = null;
    for (const c of cells) {
      const why: string[] = [];
      if (c.actions.p99 !== undefined && c.actions.p99 > s.kneeMs)
        why.push(`p99 ${fmtMs(c.actions.p99, s.commandTimeoutMs)} ms > ${fmtNum(s.kneeMs)} ms`);
      if (c.evictions.total > 0) why.push(`${fmtNum(c.evictions.total)} eviction(s)`);
      if (c.actions.errors > 0) why.push(`${fmtNum(c.actions.errors)} failed action(s)`);
      if (why.length) return { wire, kneeTables: c.tables, why: why.join(', '), heldTables: held };
      held = c.tables;
    }
    return { wire, kneeTables: null, why: null, heldTables: held };
  });
}

interface ReportInput {
  readonly run: BenchRun;
  readonly command: string;
  readonly s: TablesSettings;
  readonly distances: Distances;
  readonly cells: readonly CellRun[];
  readonly summaries: readonly CellSummary[];
  readonly usage: UsageReading;
  readonly serverPid?: number;
}

export function tablesReport(i: ReportInput): { markdown: string; svgs: { name: string; content: string }[]; summary: unknown } {
  const { run, s, summaries } = i;
  const many = summaries.length > 1 || s.ladder;
  const knees = many ? kneesOf(summaries, s) : [];
  const md: string[] = [];
  md.push(`# ${s.title}`, '');
  md.push(`Made by: \`${i.command}\``, '');
  md.push(
    `Run ${run.startedAt.toISOString()} to ${new Date().toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`tables\`, seed 003's workload: each table is opened with \`POST /api/tables\` with ${s.table.bots} server bots (think ${s.table.botThinkMs![0]} to ${s.table.botThinkMs![1]} ms, ${s.table.handPauseMs} ms between hands, a ${s.table.actionSeconds} s clock) and one simulated human, a bench bot that connects with the table's token and, on its turn, acts after a pause of ${s.pause.baseMs} ms plus up to ${s.pause.spreadMs} ms with a simple sensible choice among the actions the table offers. The sockets are split over ${s.shards} shard process(es) that open the same steady window at one instant; the ramp before it (opening tables, connecting, first hands) is excluded. Every figure is over the ${fmtNum(s.seconds)} s window${many ? ' of its cell' : ''}.${s.egressMbps !== undefined ? ` An egress shaper between the bench's sockets and the server limits the server's outbound bytes to **${s.egressMbps} Mbit/s** (one token bucket for every connection, ${fmtNum(s.shaperBufferBytes / 1024)} KiB queue per connection; HTTP goes direct).` : ' No egress limit.'}`,
    '',
  );
  md.push(
    `**The seed beside ours.** The seed's Rust server held ${fmtNum(SEED.tables)} tables at ${SEED.actionP99Ms} ms action p99 on ${SEED.workerThreads} worker threads and sent about ${SEED.jsonMbps} Mbit/s of JSON. The goal for ours: ${fmtNum(GOAL.tables)} tables within action p99 ${GOAL.actionP99Ms} ms, every human action durable (a 200 to \`table.act\` means PostgreSQL has it).`,
    '',
  );
  if (many) md.push(...ladderSections(i, knees));
  else if (summaries[0]) md.push(...cellSections(i, summaries[0], i.cells[0], '##'));
  if (many) {
    for (const [k, c] of summaries.entries()) {
      md.push(`## Cell: ${c.tables} tables, ${c.wire}`, '');
      md.push(...cellSections(i, c, i.cells[k], '###'));
    }
  }
  md.push(distancesSection(i.distances, run.db ? run.db.delayMs : undefined));
  md.push(confoundsSection(confounds(i)));
  md.push('## Files', '');
  md.push(
    `\`${run.recordsFile}\` (one line per command, HTTP call and connect, tagged with \`rung\`, \`wire\`, \`shard\`, \`table\`), \`summary.json\` (every figure above, per cell), ${many && s.plots ? '`tables-ladder.svg`, ' : ''}\`server.log\` (when the bench started the server), and the raw /metrics snapshots around each window (\`metrics/*-before.prom\`, \`-after.prom\`).`,
    '',
    rawFilesNote(i.command),
    '',
  );
  const svgs: { name: string; content: string }[] = [];
  if (many && s.plots && summaries.length) svgs.push({ name: 'tables-ladder.svg', content: ladderPlot(summaries, s) });
  const build = i.distances.health ? { version: i.distances.health.version, sha: i.distances.health.sha } : null;
  const common = {
    command: i.command,
    startedAt: run.startedAt,
    finishedAt: new Date(),
    build,
    seed: SEED,
    goal: GOAL,
    settings: { ...s, title: undefined },
    usage: i.usage,
  };
  const summary = many
    ? { mode: 'tables-ladder', ...common, kneeRule: kneeRule(s), knees, cells: summaries }
    : { mode: 'tables', ...common, ...summaries[0] };
  return { markdown: md.join('\n'), svgs, summary };
}

function ladderSections(i: ReportInput, knees: readonly Knee[]): string[] {
  const { s, summaries } = i;
  const out: string[] = [];
  out.push('## Knees', '');
  out.push(`Rule: the knee of a profile is ${kneeRule(s)}. "Held" is the highest rung below it.`, '');
  out.push(
    table(
      ['profile', 'knee (tables)', 'why', 'held up to (tables)'],
      knees.map((k) => [
        `\`${k.wire}\``,
        k.kneeTables === null ? 'none within the ladder' : fmtNum(k.kneeTables),
        k.why ?? '',
        k.heldTables === null ? 'no rung' : fmtNum(k.heldTables),
      ]),
      ['l', 'r', 'l', 'r'],
    ),
    '',
  );
  out.push('## Per profile and rung', '');
  const rows: string[][] = [];
  for (const tables of s.rungs) {
    for (const wire of s.wires) {
      const c = summaries.find((x) => x.tables === tables && x.wire === wire);
      if (!c) continue;
      rows.push([
        fmtNum(tables),
        `\`${wire}\``,
        `${fmtNum(c.seatedAtWindowStart)} of ${fmtNum(c.tables)}`,
        fmtNum(c.actions.n),
        fmtMs(c.actions.p50, s.commandTimeoutMs),
        fmtMs(c.actions.p99, s.commandTimeoutMs),
        `${fmtNum(c.evictions.client4009)} / ${c.evictions.server ? fmtNum(Object.values(c.evictions.server).reduce((t, v) => t + v, 0)) : '-'}`,
        fmtNum(c.handsCompleted),
        c.bytesPerHand === null ? '' : fmtNum(c.bytesPerHand),
        fmtNum(c.mbps, 3),
        fmtNum(c.actions.errors),
        c.server.cpuPercent === null ? '-' : fmtNum(c.server.cpuPercent),
        fmtMs(c.bench.loopDelayP99MaxMs),
      ]);
    }
  }
  out.push(
    table(
      [
        'tables',
        'profile',
        "seated at the window's start",
        'actions n',
        'p50 ms',
        'p99 ms',
        'evictions (bench 4009 / server)',
        'hands',
        'bytes per hand',
        'Mbit/s received',
        'failed actions',
        'server CPU %',
        'bench loop p99 ms (worst process)',
      ],
      rows,
      ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  );
  if (s.egressMbps !== undefined) {
    out.push(
      `Where the Mbit/s received reaches the ${s.egressMbps} Mbit/s limit, the link is saturated: frames queue in the shaper, the kernel and the server's send queues, and the window receives a backlog (late snapshots of tables still being seated, earlier hands' frames) while fewer hands finish in it, so bytes per hand there overstates what a hand costs. Read bytes per hand from the rungs below the knee, where every profile's link kept up.`,
      '',
    );
  }
  // Compare bytes per hand against JSON in the same rung. This measures the compact profiles' saving
  // in one sitting.
  const json = (tables: number) => summaries.find((c) => c.tables === tables && c.wire === 'json');
  const savings = summaries.filter((c) => c.wire !== 'json' && json(c.tables)?.bytesPerHand && c.bytesPerHand !== null);
  if (savings.length) {
    out.push(
      table(
        [
          'tables',
          'profile',
          'bytes per hand',
          'JSON bytes per hand (same rung)',
          'fewer bytes per hand',
          'frames per hand',
          'JSON frames per hand',
        ],
        savings.map((c) => {
          const j = json(c.tables)!;
          return [
            fmtNum(c.tables),
            `\`${c.wire}\``,
            fmtNum(c.bytesPerHand!),
            fmtNum(j.bytesPerHand!),
            `${fmtNum((1 - c.bytesPerHand! / j.bytesPerHand!) * 100, 1)}%`,
            fmtRatio(c.framesPerHand ?? undefined),
            fmtRatio(j.framesPerHand ?? undefined),
          ];
        }),
        ['r', 'l', 'r', 'r', 'r', 'r', 'r'],
      ),
      '',
    );
  }
  if (s.plots) out.push('![tables-ladder.svg](tables-ladder.svg)', '');
  return out;
}

function cellSections(i: ReportInput, c: CellSummary, cell: CellRun, h: string): string[] {
  const { s } = i;
  const out: string[] = [];
  const durableTrips = c.server.roundTripsPerAct;
  out.push(`${h} Headline`, '');
  out.push(
    [
      `- \`table.act\` (client send to reply): **p50 ${fmtMs(c.actions.p50, s.commandTimeoutMs) || '-'} ms, p99 ${fmtMs(c.actions.p99, s.commandTimeoutMs) || '- (n <= 11)'} ms, n = ${fmtNum(c.actions.n)}**; statuses ${
        Object.entries(c.actions.statuses)
          .map(([k, v]) => `${k}: ${fmtNum(v)}`)
          .join(', ') || 'none'
      }; ${fmtNum(c.actions.timeouts)} timed out, ${fmtNum(c.actions.noReply)} without reply.`,
      `- ${fmtNum(c.handsCompleted)} hands completed at ${fmtNum(c.tables)} tables (${fmtNum(c.seatedAtWindowStart)} seated when the window opened, ${fmtNum(c.seatedAtWindowEnd)} when it closed); ${fmtNum(c.frames)} frames and ${fmtNum(c.bytes)} bytes received, **${c.bytesPerHand === null ? '-' : fmtNum(c.bytesPerHand)} bytes and ${c.framesPerHand === null ? '-' : fmtRatio(c.framesPerHand)} frames per hand**, **${fmtNum(c.mbps, 3)} Mbit/s** of application payload (${c.wire}${
        Object.keys(c.grantedWire).length
          ? `; the server granted ${Object.entries(c.grantedWire)
              .map(([k, v]) => `${k} to ${v}`)
              .join(', ')}`
          : ''
      }).`,
      `- Evictions: ${fmtNum(c.evictions.client4009)} socket(s) closed with 4009 on the bench's side in the window; the server counted ${
        c.evictions.server
          ? Object.entries(c.evictions.server)
              .map(([k, v]) => `${fmtNum(v)} (${k})`)
              .join(', ') || '0'
          : 'n/a (figures refused)'
      }.`,
      `- Durability: a 200 to \`table.act\` is sent after its statement commits; the server sent ${durableTrips === null ? 'n/a' : fmtRatio(durableTrips)} round trips per \`table.act\` (\`${ACT_STATEMENTS.join('` or `')}\`), server exact mean ${fmtMs(c.server.actMeanMs ?? undefined) || '-'} ms.`,
      `- CPU (percent of one core over the window): server ${c.server.cpuPercent === null ? 'not measured' : fmtNum(c.server.cpuPercent)}, PostgreSQL ${c.postgresCpuPercent === null ? '-' : fmtNum(c.postgresCpuPercent)}, bench ${fmtNum(c.bench.cpuPercentTotal)} (${c.bench.shards.map((x) => `shard ${x.shard} ${fmtNum(x.cpuPercent)}`).join(', ')}, coordinator${s.egressMbps !== undefined ? ' and shaper' : ''} ${fmtNum(c.bench.coordinator.cpuPercent ?? undefined)}), whole machine ${c.machineCpuPercent === null ? '-' : fmtNum(c.machineCpuPercent)}.`,
      `- Event-loop delay: server ${c.server.loopDelayMs ? `p50 ${fmtMs(c.server.loopDelayMs.p50)} / p99 ${fmtMs(c.server.loopDelayMs.p99)} / max ${fmtMs(c.server.loopDelayMs.max)} ms` : 'not exposed'}; bench worst process p99 ${fmtMs(c.bench.loopDelayP99MaxMs)} ms.`,
      ...(c.server.refused
        ? [
            `- **Server figures refused:** ${c.server.refused}. The bench's own figures stand; every server figure of this window (bytes sent, evictions counted, CPU means, round trips) is left out.`,
          ]
        : []),
      ...(c.failures || c.shardErrors.length || c.unresolved
        ? [
            `- **Problems:** ${fmtNum(c.failures)} table(s) failed${c.failureSamples.length ? ` (${c.failureSamples.join('; ')})` : ''}${c.shardErrors.length ? `; ${c.shardErrors.join('; ')}` : ''}${c.unresolved ? `; ${c.unresolved} command(s) of the window unresolved when the shards reported` : ''}.`,
          ]
        : []),
      ...(c.seatedAtWindowStart < c.tables
        ? [
            `- **The ramp was short:** only ${fmtNum(c.seatedAtWindowStart)} of ${fmtNum(c.tables)} tables were seated when the window opened; give more \`--ramp-seconds\`.`,
          ]
        : []),
    ].join('\n'),
    '',
  );
  if (h === '##') {
    out.push(`${h} Ours beside the seed's`, '');
    out.push(
      table(
        ['', 'seed (Rust, 2 worker threads)', 'goal', 'this run'],
        [
          ['tables', fmtNum(SEED.tables), fmtNum(GOAL.tables), fmtNum(c.tables)],
          ['action p99 ms', String(SEED.actionP99Ms), `<= ${GOAL.actionP99Ms}`, fmtMs(c.actions.p99, s.commandTimeoutMs) || '-'],
          ['Mbit/s sent', `${SEED.jsonMbps} (JSON)`, '', `${fmtNum(c.mbps, 3)} (${c.wire}, received)`],
          ['Mbit/s per 1,000 tables', String(SEED.jsonMbps), '', fmtNum((c.mbps * 1000) / c.tables, 3)],
          [
            'every human action durable',
            'not stated',
            'yes',
            durableTrips !== null && durableTrips >= 1 - 1e-9
              ? 'yes: one statement per action'
              : durableTrips === null
                ? 'not measured'
                : `${fmtRatio(durableTrips)} statements per action`,
          ],
        ],
        ['l', 'r', 'r', 'r'],
      ),
      '',
    );
    const applicable = [
      ...(c.tables < GOAL.tables ? [`${fmtNum(c.tables)} tables, not ${fmtNum(GOAL.tables)}`] : []),
      ...(s.egressMbps !== undefined ? ['egress limited'] : []),
      ...(i.run.target.url ? ['a server the bench did not start'] : []),
      ...(i.run.target.pgFast ? ['durability off (--pg-fast)'] : []),
    ];
    const checks: Check[] = [
      {
        what: `${fmtNum(GOAL.tables)} tables within action p99 ${GOAL.actionP99Ms} ms, every human action durable`,
        expected: `p99 <= ${GOAL.actionP99Ms} ms at >= ${fmtNum(GOAL.tables)} tables, no failed action, one statement per action`,
        measured: `p99 ${fmtMs(c.actions.p99, s.commandTimeoutMs) || '-'} ms at ${fmtNum(c.tables)} tables, ${fmtNum(c.actions.errors)} failed, ${durableTrips === null ? '-' : fmtRatio(durableTrips)} statements per action`,
        ok: applicable.length
          ? undefined
          : c.actions.p99 !== undefined &&
            c.actions.p99 <= GOAL.actionP99Ms &&
            c.actions.errors === 0 &&
            durableTrips !== null &&
            durableTrips >= 1 - 1e-9,
        note: applicable.join('; '),
      },
    ];
    out.push(checksSection(checks));
  }
  out.push(`${h}# Commands in the window (client send to reply)`, '');
  const windowRecords = i.run.records.filter(
    (r) => r.rung === c.tables && r.wire === c.wire && r.sentAt >= cell.windowStart && r.sentAt < cell.windowEnd && r.type !== 'cleanup',
  );
  out.push(clientTable(clientRows(windowRecords), s.commandTimeoutMs), '');
  out.push(`${h}# Frames and bytes by message kind`, '');
  out.push(
    `What the bench's sockets received in the window: the UTF-8 length of every frame's payload (WebSocket and TCP framing not counted), by the frame's kind as decoded (${c.wire === 'compact-v2' || c.wire === 'compact-v3' ? `${c.wire} sends type codes; the kinds here are their names, ` : ''}\`reply\` for replies), beside what the server counted as sent over the same window (\`game_ws_outbound_*_total\`)${s.egressMbps !== undefined ? "; with the shaper, what the server sent and what arrived differ by what was in flight at the window's edges and by what the server dropped with an evicted socket" : ''}.`,
    '',
  );
  const kinds = [...new Set([...Object.keys(c.byKind), ...Object.keys(c.server.byKind ?? {})])].sort(
    (a, b) => (c.byKind[b]?.bytes ?? 0) - (c.byKind[a]?.bytes ?? 0),
  );
  const hands = c.handsCompleted || undefined;
  out.push(
    table(
      [
        'kind',
        'frames received',
        'bytes received',
        'share of bytes',
        'bytes per hand',
        'frames per hand',
        'server frames sent',
        'server bytes sent',
      ],
      [
        ...kinds.map((k) => {
          const b = c.byKind[k] ?? { frames: 0, bytes: 0 };
          const sv = c.server.byKind?.[k];
          return [
            `\`${k}\``,
            fmtNum(b.frames),
            fmtNum(b.bytes),
            c.bytes ? `${fmtNum((b.bytes / c.bytes) * 100, 1)}%` : '',
            hands ? fmtNum(b.bytes / hands, 1) : '',
            hands ? fmtRatio(b.frames / hands) : '',
            sv ? fmtNum(sv.frames) : '-',
            sv ? fmtNum(sv.bytes) : '-',
          ];
        }),
        [
          '**all**',
          fmtNum(c.frames),
          fmtNum(c.bytes),
          '100%',
          hands ? fmtNum(c.bytes / hands, 1) : '',
          hands ? fmtRatio(c.frames / hands) : '',
          c.server.outboundFrames === null ? '-' : fmtNum(c.server.outboundFrames),
          c.server.outboundBytes === null ? '-' : fmtNum(c.server.outboundBytes),
        ],
      ],
    ),
    '',
  );
  out.push(`${h}# CPU and event loops`, '');
  out.push(
    table(
      ['process', 'CPU % of one core', 'event-loop delay p50 / p99 / max ms', 'note'],
      [
        [
          'server',
          c.server.cpuPercent === null ? 'not measured' : fmtNum(c.server.cpuPercent),
          c.server.loopDelayMs
            ? `${fmtMs(c.server.loopDelayMs.p50)} / ${fmtMs(c.server.loopDelayMs.p99)} / ${fmtMs(c.server.loopDelayMs.max)}`
            : '-',
          `/proc/${i.serverPid ?? '?'}/stat; loop from /metrics (\`nodejs_eventloop_lag_*\`, reset by the scrape that opened the window, less its 10 ms sampling interval)`,
        ],
        ['PostgreSQL (all its processes)', c.postgresCpuPercent === null ? '-' : fmtNum(c.postgresCpuPercent), '', ''],
        ...c.bench.shards.map((x) => [
          `bench shard ${x.shard} (${fmtNum(x.tables)} tables)`,
          fmtNum(x.cpuPercent),
          `${fmtMs(x.loopDelayMs.p50)} / ${fmtMs(x.loopDelayMs.p99)} / ${fmtMs(x.loopDelayMs.max)}`,
          'perf_hooks.monitorEventLoopDelay, less its 10 ms resolution',
        ]),
        [
          `bench coordinator${s.egressMbps !== undefined ? ' (with the shaper)' : ''}`,
          fmtNum(c.bench.coordinator.cpuPercent ?? undefined),
          `${fmtMs(c.bench.coordinator.loopDelayMs.p50)} / ${fmtMs(c.bench.coordinator.loopDelayMs.p99)} / ${fmtMs(c.bench.coordinator.loopDelayMs.max)}`,
          '',
        ],
        ['whole machine', c.machineCpuPercent === null ? '-' : fmtNum(c.machineCpuPercent), '', `${BenchRun.machine()}`],
      ],
      ['l', 'r', 'r', 'l'],
    ),
    '',
  );
  if (c.shaper) {
    out.push(`${h}# The egress shaper`, '');
    out.push(
      `Delivered ${fmtNum(c.shaper.deliveredBytes)} bytes to the bench's sockets in the window (${fmtNum(c.shaper.mbps, 3)} Mbit/s against a limit of ${s.egressMbps} Mbit/s); the most one connection held was ${fmtNum(c.shaper.maxHeldBytes)} bytes (bound ${fmtNum(s.shaperBufferBytes)}); connections stopped reading from the server ${fmtNum(c.shaper.pauses)} time(s) because their queue was full.`,
      '',
    );
  }
  out.push(`${h}# Closes`, '');
  out.push(
    Object.keys(c.closeCodes).length
      ? table(
          ['close code', 'in the window', 'until the shards reported'],
          Object.entries(c.closeCodes).map(([k, v]) => [k, fmtNum(v.inWindow), fmtNum(v.total)]),
          ['l', 'r', 'r'],
        )
      : 'No socket was closed by the server while the bench played (the bench closes its own at the end).',
    '',
  );
  if (s.egressMbps !== undefined) {
    out.push(
      "Behind a saturated link a 4009 reaches the client only after everything queued before its close frame, so the bench's count lags the server's; the server's `game_ws_evictions_total` is the timely figure, and the knee takes the larger of the two.",
      '',
    );
  }
  out.push(serverSection({ delta: cell.figures.delta, refused: cell.figures.refused }, `${h}#`));
  return out;
}

function confounds(i: ReportInput): string[] {
  const { run, s } = i;
  const items = [
    `One machine for the bench, the server and PostgreSQL: ${BenchRun.machine()}; they share its cores (each one's CPU is above). ${usageText(i.usage)}`,
    `The bench's sockets are on loopback${s.egressMbps !== undefined ? `, behind a ${s.egressMbps} Mbit/s shaper with no added latency or loss` : ''}; phones are tens of milliseconds away and lose packets.`,
    `One simulated human per table with pauses of ${s.pause.baseMs} to ${s.pause.baseMs + s.pause.spreadMs} ms and a ${s.table.actionSeconds} s clock; people think longer and some leave their tables.`,
    `A fresh database holding only this run's tables${run.target.pgFast ? ', with durability off (--pg-fast): not production-like' : ', durable (fsync on)'}.`,
    'No spectators: the seed counted bytes to the player only too.',
    'Mbit/s counts application payload (frame text); WebSocket headers add 2 to 8 bytes a frame and TCP/IP about 52 bytes a segment on top.',
  ];
  if (run.target.url)
    items.push(
      "The server was already running (--url): its CPU is measured only when /health names a pid on this machine, and another scraper of /metrics would reset the event-loop figures between the bench's scrapes.",
    );
  if (run.build?.stale)
    items.push(
      `**The server build is older than its sources** (${run.build.newestSource?.file}); the sha names code that may not be what ran.`,
    );
  return items;
}

function ladderPlot(summaries: readonly CellSummary[], s: TablesSettings): string {
  const xs = [...new Set(summaries.map((c) => c.tables))].sort((a, b) => a - b);
  const xAxis = { label: 'tables', log: true, ticks: xs, min: xs[0] / 1.3, max: xs[xs.length - 1] * 1.3 };
  const series = (f: (c: CellSummary) => number | undefined | null) =>
    s.wires.map((wire) => ({
      name: wire,
      points: summaries
        .filter((c) => c.wire === wire && f(c) !== undefined && f(c) !== null && Number.isFinite(f(c)!))
        .sort((a, b) => a.tables - b.tables)
        .map((c) => [c.tables, f(c)!] as [number, number]),
    }));
  const p99 = linePlot({
    title: 'table.act client p99 against tables',
    subtitle: `${s.egressMbps !== undefined ? `egress ${s.egressMbps} Mbit/s` : 'no egress limit'}; over each cell's ${s.seconds} s window`,
    x: xAxis,
    y: { label: 'ms', log: true },
    series: series((c) => c.actions.p99),
    hLines: [{ at: s.kneeMs, label: `knee threshold ${s.kneeMs} ms`, color: '#d62728' }],
  });
  const mbps = linePlot({
    title: 'Mbit/s received by the bench against tables',
    subtitle: 'application payload over the window',
    x: xAxis,
    y: { label: 'Mbit/s', min: 0 },
    series: series((c) => c.mbps),
    hLines: s.egressMbps !== undefined ? [{ at: s.egressMbps, label: `egress limit ${s.egressMbps} Mbit/s`, color: '#7f7f7f' }] : [],
    height: 300,
  });
  const perHand = linePlot({
    title: 'Bytes per hand against tables',
    subtitle: "every frame the human's socket received, per hand completed",
    x: xAxis,
    y: { label: 'bytes per hand', min: 0 },
    series: series((c) => c.bytesPerHand),
    height: 300,
  });
  const evictions = linePlot({
    title: 'Evictions against tables',
    subtitle: "4009 closes on the bench side or the server's eviction counter, whichever is larger",
    x: xAxis,
    y: { label: 'sockets', min: 0, integer: true },
    series: series((c) => c.evictions.total),
    height: 260,
  });
  return stackPlots([p99, mbps, perHand, evictions]);
}

export { latencies };
