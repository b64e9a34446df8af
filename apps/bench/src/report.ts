import { CommandRecord, GameReport } from '@app/bot-kit';
import { UsageReading } from './host-usage';
import { HistogramDelta, MetricsDelta, summarize, Summary } from './stats';
import { Distances } from './yardstick';

/** The commands that send a statement on their critical path (DESIGN.md, round-trip budget). */
export const DURABLE_COMMANDS: readonly string[] = ['room.start', 'room.answer', 'room.rematch', 'room.leave'];
/**
 * The statement a durable command waits for: an append to the room's journal. Commands of many rooms
 * that commit in the same turn share one. What no command waits for (a game's finish, a close, a
 * presence change that closed a question) is written by `JournalRepository.record`.
 */
export const JOURNAL_APPEND = 'JournalRepository.append';

const TYPE_ORDER = ['room.start', 'room.answer', 'room.rematch', 'room.leave', 'ping', 'ws.connect'];

export function typeOrder(a: string, b: string): number {
  const ia = TYPE_ORDER.indexOf(a);
  const ib = TYPE_ORDER.indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
}

/** Formats ms for a table, with more decimals for small values. A percentile past the timeout says so. */
export function fmtMs(v: number | undefined, timeoutMs?: number): string {
  if (v === undefined || Number.isNaN(v)) return '';
  if (v === Infinity) return timeoutMs ? `> ${fmtNum(timeoutMs)} (timeout)` : '∞';
  if (Math.abs(v) < 10) return v.toFixed(2);
  if (Math.abs(v) < 1000) return v.toFixed(1);
  return Math.round(v).toLocaleString('en-US');
}

export function fmtNum(v: number | undefined, digits = 0): string {
  if (v === undefined || Number.isNaN(v)) return '';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function fmtRatio(v: number | undefined): string {
  return v === undefined || !Number.isFinite(v) ? '' : v.toFixed(2);
}

export function table(headers: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const sep = headers.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'));
  const esc = (c: string) => c.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [`| ${headers.map(esc).join(' | ')} |`, `| ${sep.join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/**
 * The file suffixes of a report's raw files: per-command records, /metrics snapshots, and anything
 * gzipped. The repository's .gitignore keeps them out of bench/reports, because a ladder's records
 * alone were megabytes. The report, summary.json and the plots are committed.
 */
export const UNCOMMITTED_SUFFIXES = ['.jsonl', '.ndjson', '.csv', '.prom', '.gz', '.log'] as const;

/** The line under a report's "Files". It says those files are not committed, and that the command makes a new set. */
export function rawFilesNote(command: string): string {
  const patterns = UNCOMMITTED_SUFFIXES.map((x) => `\`*${x}\``).join(', ');
  return `The records, the /metrics snapshots and the logs are written beside this report but kept out of git under bench/reports (.gitignore: ${patterns}). This folder holds the run's only copy; a new set comes from running the command again (a new run, with its own report): \`${command}\`.`;
}

// ---------------------------------------------------------------------------------- client side

export interface ClientRow {
  readonly type: string;
  readonly summary: Summary;
  readonly statuses: Record<string, number>;
  readonly timedOut: number;
  /** Commands with no reply that did not time out: the socket closed first, or it was never open. */
  readonly noReply: number;
}

/** The latency values of records. Timed-out records count as +Infinity, and records with no reply are left out. */
export function latencies(records: readonly CommandRecord[]): number[] {
  return records.filter((r) => r.timedOut || r.status !== null).map((r) => (r.timedOut ? Infinity : r.ms));
}

export function clientRows(records: readonly CommandRecord[]): ClientRow[] {
  const byType = new Map<string, CommandRecord[]>();
  for (const r of records) {
    if (r.type === 'cleanup' || r.type === 'preflight') continue;
    const list = byType.get(r.type) ?? [];
    list.push(r);
    byType.set(r.type, list);
  }
  return [...byType.entries()]
    .sort(([a], [b]) => typeOrder(a, b))
    .map(([type, list]) => {
      const statuses: Record<string, number> = {};
      for (const r of list) if (r.status !== null) statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
      return {
        type,
        summary: summarize(latencies(list)),
        statuses,
        timedOut: list.filter((r) => r.timedOut).length,
        noReply: list.filter((r) => !r.timedOut && r.status === null).length,
      };
    });
}

export function clientTable(rows: readonly ClientRow[], timeoutMs: number): string {
  return table(
    ['command', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'max ms', 'statuses', 'timed out', 'no reply'],
    rows.map((r) => [
      `\`${r.type}\``,
      String(r.summary.n),
      fmtMs(r.summary.p50, timeoutMs),
      fmtMs(r.summary.p95, timeoutMs),
      fmtMs(r.summary.p99, timeoutMs),
      fmtMs(r.summary.mean),
      fmtMs(r.summary.max),
      Object.entries(r.statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', '),
      String(r.timedOut),
      String(r.noReply),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r'],
  );
}

/** A command is an error for the bench when it got anything but a success, or nothing. */
export function isError(r: CommandRecord): boolean {
  if (r.timedOut || r.status === null) return true;
  if (r.type === 'ws.connect') return r.status !== 101;
  return r.status >= 300;
}

// ---------------------------------------------------------------------------------- server side

export function bucketsText(h: HistogramDelta): string {
  return h.buckets.map((b) => `${b.leMs === Infinity ? '+Inf' : `≤${fmtBound(b.leMs)}`}: ${b.count}`).join(', ');
}

function fmtBound(ms: number): string {
  return String(Number(ms.toPrecision(4)));
}

export interface ServerFigures {
  readonly delta?: MetricsDelta;
  /** Why there are no server figures (a restart between snapshots, no /metrics...). */
  readonly refused?: string;
}

export function serverSection(figures: ServerFigures, heading = '##'): string {
  if (!figures.delta)
    return `${heading} Server: exact means from /metrics\n\nRefused: ${figures.refused}. No server-side figure of this run is reported.\n`;
  const d = figures.delta;
  const commands = d
    .histograms('game_command_duration_seconds')
    .sort((a, b) => typeOrder(a.labels.command, b.labels.command) || a.labels.status_class.localeCompare(b.labels.status_class));
  const mailbox = d.histograms('game_mailbox_wait_seconds').sort((a, b) => typeOrder(a.labels.command, b.labels.command));
  const statements = d
    .histograms('game_db_statement_duration_seconds')
    .sort((a, b) => a.labels.statement.localeCompare(b.labels.statement));
  const trips = new Map(d.counterBy('game_db_round_trips_total', 'statement').map((t) => [t.key, t.value]));
  const acquire = d.histograms('game_db_pool_acquire_seconds', []);
  const out: string[] = [];
  out.push(`${heading} Server: exact means from /metrics`);
  out.push('');
  out.push(
    'Δ`_sum` / Δ`_count` between the snapshots taken just before and just after the play, with the Δ count of each histogram bucket beside it (upper bounds in ms). The snapshots were accepted because `process_start_time_seconds` did not change.',
  );
  out.push('');
  out.push(`${heading}# Command duration (frame in to reply out)`);
  out.push('');
  out.push(
    table(
      ['command', 'status', 'n', 'exact mean ms', 'Δ bucket counts'],
      commands.map((h) => [`\`${h.labels.command}\``, h.labels.status_class, fmtNum(h.count), fmtMs(h.meanMs), bucketsText(h)]),
      ['l', 'l', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  out.push(`${heading}# Mailbox wait (before the command's batch started)`);
  out.push('');
  out.push(
    table(
      ['command', 'n', 'exact mean ms', 'Δ bucket counts'],
      mailbox.map((h) => [`\`${h.labels.command}\``, fmtNum(h.count), fmtMs(h.meanMs), bucketsText(h)]),
      ['l', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  out.push(`${heading}# Statements (pool checkout included) and pool acquire`);
  out.push('');
  out.push(
    table(
      ['statement', 'n', 'round trips', 'exact mean ms', 'Δ bucket counts'],
      [
        ...statements.map((h) => [
          `\`${h.labels.statement}\``,
          fmtNum(h.count),
          fmtNum(trips.get(h.labels.statement)),
          fmtMs(h.meanMs),
          bucketsText(h),
        ]),
        ...[...trips.keys()]
          .filter((k) => !statements.some((h) => h.labels.statement === k))
          .map((k) => [`\`${k}\``, '', fmtNum(trips.get(k)), '', '(no duration recorded)']),
        ...acquire.map((h) => ['pool acquire (`game_db_pool_acquire_seconds`)', fmtNum(h.count), '', fmtMs(h.meanMs), bucketsText(h)]),
      ],
      ['l', 'r', 'r', 'r', 'l'],
    ),
  );
  out.push('');
  return out.join('\n');
}

/** The server's exact mean for one command, over every status class. */
export function serverMean(delta: MetricsDelta | undefined, command: string): { n: number; meanMs?: number } {
  if (!delta) return { n: 0 };
  const [h] = delta.histograms('game_command_duration_seconds', ['command']).filter((x) => x.labels.command === command);
  return h ? { n: h.count, meanMs: h.meanMs } : { n: 0 };
}

export function serverMeanOf(
  delta: MetricsDelta | undefined,
  family: string,
  labels: Record<string, string>,
): { n: number; meanMs?: number } {
  if (!delta) return { n: 0 };
  const keep = Object.keys(labels);
  const [h] = delta.histograms(family, keep).filter((x) => keep.every((k) => x.labels[k] === labels[k]));
  return h ? { n: h.count, meanMs: h.meanMs } : { n: 0 };
}

export function roundTripsSection(delta: MetricsDelta | undefined, rttMs: number | undefined, games: number, heading = '##'): string {
  const out = [`${heading} Round trips per command`, ''];
  if (!delta) return [...out, 'Not available: the server figures were refused (see above).', ''].join('\n');
  out.push(
    "Round trips counted by the server (`game_db_round_trips_total` by statement) divided by the commands of the type that issues the statement (all statuses). Answers or votes waiting together share one statement, so a ratio under 1 means batching. The last columns express the server's exact mean in yardstick round trips (median of the 20 `select 1`).",
  );
  out.push('');
  const trips = new Map(delta.counterBy('game_db_round_trips_total', 'statement').map((t) => [t.key, t.value]));
  const rows = DURABLE_COMMANDS.map((command) => {
    const n = serverMean(delta, command);
    return [
      `\`${command}\``,
      fmtNum(n.n),
      fmtMs(n.meanMs),
      rttMs !== undefined && n.meanMs !== undefined ? fmtRatio(n.meanMs / rttMs) : '',
    ];
  });
  out.push(table(['command', 'commands', 'server mean ms', 'server mean in round trips'], rows, ['l', 'r', 'r', 'r']));
  out.push('');
  const durable = DURABLE_COMMANDS.reduce((sum, c) => sum + serverMean(delta, c).n, 0);
  const appends = trips.get(JOURNAL_APPEND) ?? 0;
  out.push(
    `Journal appends (\`${JOURNAL_APPEND}\`, every room write): ${fmtNum(appends)} for ${fmtNum(durable)} durable commands${durable ? `, ${fmtRatio(appends / durable)} per command` : ''} (under 1 means commands shared statements).`,
  );
  out.push('');
  const other = [...trips.entries()].filter(([s]) => s !== JOURNAL_APPEND);
  if (other.length) {
    out.push('Other statements (activations, opening rooms, finishes and closes the clock took, heartbeats):');
    out.push('');
    out.push(
      table(
        ['statement', 'round trips', games > 0 ? 'per game' : ''],
        other.sort().map(([s, t]) => [`\`${s}\``, fmtNum(t), games > 0 ? fmtRatio(t / games) : '']),
      ),
    );
    out.push('');
  }
  const total = [...trips.values()].reduce((s, v) => s + v, 0);
  if (games > 0) out.push(`All statements: ${fmtNum(total)} round trips for ${games} game(s), ${fmtRatio(total / games)} per game.\n`);
  return out.join('\n');
}

export function bytesSection(delta: MetricsDelta | undefined, heading = '##'): string {
  const out = [`${heading} Bytes per answer by message kind`, ''];
  if (!delta) return [...out, 'Not available: the server figures were refused (see above).', ''].join('\n');
  const answers = serverMean(delta, 'room.answer').n;
  if (!answers) return [...out, 'No answers in this interval.', ''].join('\n');
  const bytes = delta.counterBy('game_ws_outbound_bytes_total', 'kind').sort((a, b) => b.value - a.value);
  const frames = new Map(delta.counterBy('game_ws_outbound_frames_total', 'kind').map((f) => [f.key, f.value]));
  const wires = [
    ...new Set(delta.samples.filter((s) => s.name === 'game_ws_outbound_bytes_total' && s.value > 0).map((s) => s.labels.wire)),
  ];
  out.push(
    `Δ\`game_ws_outbound_bytes_total\` by kind divided by the ${fmtNum(answers)} \`room.answer\` commands the server handled: everything the server sent on game sockets, whatever caused it, per answer (wire: ${wires.join(', ') || 'none'}).`,
  );
  out.push('');
  const totalBytes = bytes.reduce((s, b) => s + b.value, 0);
  const totalFrames = [...frames.values()].reduce((s, v) => s + v, 0);
  out.push(
    table(
      ['kind', 'bytes', 'frames', 'bytes per answer', 'frames per answer'],
      [
        ...bytes.map((b) => [
          `\`${b.key}\``,
          fmtNum(b.value),
          fmtNum(frames.get(b.key)),
          fmtNum(b.value / answers, 1),
          fmtRatio((frames.get(b.key) ?? 0) / answers),
        ]),
        ['**all**', fmtNum(totalBytes), fmtNum(totalFrames), fmtNum(totalBytes / answers, 1), fmtRatio(totalFrames / answers)],
      ],
    ),
  );
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------- distances

export function rttOf(d: Distances): number | undefined {
  return d.selectOne ? summarize(d.selectOne.samples).p50 : undefined;
}

export function clientHopOf(d: Distances): number | undefined {
  return d.wsPing?.length ? summarize(d.wsPing).p50 : undefined;
}

export function distancesSection(d: Distances, injectedDelayMs: number | undefined, heading = '##'): string {
  const row = (what: string, samples: readonly number[] | undefined, note = '') => {
    if (!samples?.length) return [what, '0', '', '', '', '', note];
    const s = summarize(samples);
    return [what, String(s.n), fmtMs(s.min), fmtMs(s.p50), fmtMs(s.mean), fmtMs(s.max), note];
  };
  const rows = [
    row(
      `PostgreSQL: \`select 1\`, sequential, ${d.selectOne ? d.selectOne.path : 'not measured'}`,
      d.selectOne?.samples,
      d.selectOne ? `connect ${fmtMs(d.selectOne.connectMs)} ms` : (d.selectOneSkipped ?? ''),
    ),
    [
      "PostgreSQL: the server's own `/health` ping",
      d.health?.db.roundTripMs !== undefined ? '1' : '0',
      '',
      fmtMs(d.health?.db.roundTripMs),
      '',
      '',
      d.healthError ?? '',
    ],
    row('client -> server: TCP connect', d.tcpConnect),
    row('client -> server: WebSocket `ping` reply (the client hop; no database)', d.wsPing, d.wsPingError ?? ''),
  ];
  const out = [`${heading} Distances (measured before the run)`, ''];
  out.push(
    injectedDelayMs === undefined
      ? 'No delay was injected: the bench measured a server that was already running.'
      : injectedDelayMs > 0
        ? `Injected: a TCP proxy between the server and PostgreSQL delays every chunk by ${injectedDelayMs} ms each way (${2 * injectedDelayMs} ms per round trip).`
        : 'Injected: nothing. The server talks to PostgreSQL on the same machine over loopback.',
  );
  out.push('');
  out.push(table(['what', 'n', 'min ms', 'p50 ms', 'mean ms', 'max ms', 'note'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'l']));
  out.push('');
  if (d.health)
    out.push(
      `Build under test (from \`/health\`): version **${d.health.version}**, sha **${d.health.sha}**, up ${d.health.uptimeSeconds} s at the start.\n`,
    );
  else out.push(`Build under test: unknown (${d.healthError}).\n`);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------- rematch

/**
 * Counts how many groups the vote replies of one game came back in. A new group starts where the gap
 * between consecutive replies is over half a round trip. This is only meaningful at a distance
 * (>= 5 ms).
 */
export function replyBatches(game: GameReport, rttMs: number | undefined): number | undefined {
  if (rttMs === undefined || rttMs < 5) return undefined;
  const times = game.rematch.repliedAt.filter((t): t is number => t !== null).sort((a, b) => a - b);
  if (!times.length) return undefined;
  let batches = 1;
  for (let i = 1; i < times.length; i++) if (times[i] - times[i - 1] > rttMs / 2) batches++;
  return batches;
}

export function rematchSection(games: readonly GameReport[], rttMs: number | undefined, heading = '##', summaryOnly = false): string {
  const out = [`${heading} Rematch votes sent in the same moment`, ''];
  if (!games.length) return [...out, 'No game reached its rematch vote.', ''].join('\n');
  if (summaryOnly) {
    const spreads = games.map((g) => g.rematch.replySpreadMs).filter((v): v is number => v !== null);
    const s = summarize(spreads);
    const inRtt = (v: number | undefined) => (v !== undefined && rttMs ? ` (${fmtRatio(v / rttMs)} round trips)` : '');
    out.push(
      `Every seat of a room votes in the same turn of the bench's event loop; the spread is the last reply's arrival minus the first's. Over ${games.length} games: n = ${s.n}, p50 ${fmtMs(s.p50)} ms${inRtt(s.p50)}, p95 ${fmtMs(s.p95) || '-'} ms, p99 ${fmtMs(s.p99) || '-'} ms${inRtt(s.p99)}, max ${fmtMs(s.max)} ms${inRtt(s.max)}; ${games.length - spreads.length} game(s) had a vote without a reply; statuses: ${Object.entries(
        games
          .flatMap((g) => g.rematch.statuses)
          .reduce<Record<string, number>>((acc, st) => ((acc[String(st ?? 'none')] = (acc[String(st ?? 'none')] ?? 0) + 1), acc), {}),
      )
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}.`,
      '',
    );
    return out.join('\n');
  }
  out.push(
    "At the end of each game every seat sends its vote in the same turn of the bench's event loop (the send spread is the last send minus the first). The reply spread is the last reply's arrival minus the first's; a staircase (each vote waiting for the one before) would show as a spread of about one round trip per extra vote. Reply groups: replies more than half a round trip apart are counted as separate groups (n/a without distance); one group means the votes were committed together.",
  );
  out.push('');
  out.push(
    table(
      [
        'room',
        'game',
        'votes',
        'send spread ms',
        'reply spread ms',
        'reply spread in round trips',
        'replies (ms after first send)',
        'reply groups',
        'statuses',
        'decided',
      ],
      games.map((g) => {
        const t0 = Math.min(...g.rematch.sentAt);
        return [
          g.room,
          String(g.game),
          String(g.rematch.sentAt.length),
          fmtMs(g.rematch.sendSpreadMs),
          g.rematch.replySpreadMs === null ? 'a vote got no reply' : fmtMs(g.rematch.replySpreadMs),
          g.rematch.replySpreadMs !== null && rttMs ? fmtRatio(g.rematch.replySpreadMs / rttMs) : '',
          g.rematch.repliedAt.map((t) => (t === null ? '-' : fmtMs(t - t0))).join(', '),
          String(replyBatches(g, rttMs) ?? 'n/a'),
          g.rematch.statuses.map((s) => s ?? '-').join(', '),
          g.rematch.accepted === null ? '?' : g.rematch.accepted ? 'accepted' : 'declined',
        ];
      }),
      ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'l', 'l'],
    ),
  );
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------- usage, confounds

export function usageText(u: UsageReading | undefined): string {
  if (!u) return '';
  const mine = Object.entries(u.cpuPercent).filter(([k, v]) => k !== 'machine' && v !== undefined) as [string, number][];
  const cpu = mine.map(([k, v]) => `${k} ${fmtNum(v, 0)}%`).join(', ');
  const machine = u.cpuPercent.machine;
  const others = machine !== undefined ? Math.max(0, machine - mine.reduce((t, [, v]) => t + v, 0)) : undefined;
  const whole =
    machine !== undefined
      ? `; the whole machine ${fmtNum(machine, 0)}%, so other processes (not this run's) used about ${fmtNum(others, 0)}%`
      : '';
  return `CPU over the ${fmtNum(u.wallSeconds, 0)} s of play (percent of one core): ${cpu}${whole}. Bench event-loop delay p50 ${fmtMs(u.loopDelay.p50)} ms, p99 ${fmtMs(u.loopDelay.p99)} ms, max ${fmtMs(u.loopDelay.max)} ms. Load average at the end: ${u.loadAverage.map((v) => v.toFixed(2)).join(' ')}.`;
}

export function confoundsSection(items: readonly string[], heading = '##'): string {
  return [`${heading} Confounds: what differed from production`, '', ...items.map((i) => `- ${i}`), ''].join('\n');
}

export interface Check {
  readonly what: string;
  readonly expected: string;
  readonly measured: string;
  /** true when met, false when not met, and undefined when not applicable here. */
  readonly ok?: boolean;
  readonly note?: string;
}

export function checksSection(checks: readonly Check[], heading = '##'): string {
  return [
    `${heading} What the issue expects, and what this run shows`,
    '',
    table(
      ['expectation', 'expected', 'measured', 'verdict', 'note'],
      checks.map((c) => [
        c.what,
        c.expected,
        c.measured,
        c.ok === undefined ? 'not applicable' : c.ok ? 'met' : '**not met**',
        c.note ?? '',
      ]),
      ['l', 'l', 'l', 'l', 'l'],
    ),
    '',
  ].join('\n');
}
