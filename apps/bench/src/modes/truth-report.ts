import { readFileSync } from 'node:fs';
import { CommandRecord } from '@app/bot-kit';
import { AnswerAccount, accountAnswers, MissingAcks, missingAcks } from '../answer-truth';
import { UsageReading } from '../host-usage';
import { Check, confoundsSection, distancesSection, fmtMs, fmtNum, ServerFigures, table } from '../report';
import { BenchRun, BotSettings } from '../run';
import { Distances } from '../yardstick';
import { MetricsDelta, summarize, Summary } from '../stats';
import { PlayLedger, WatchedRoomReport } from '../watched-room';
import { standardConfounds } from './games-report';

/** A span of the run (epoch ms, end excluded), and the rooms it is about. */
export interface Slice {
  /** Only the rooms of this cohort, or all rooms when absent. */
  readonly cohort?: string;
  readonly from?: number;
  readonly to?: number;
}

/** A "room let go" line of the server's log: when it was written, and which room it names. */
export interface LetGoLine {
  readonly at: number;
  readonly room?: string;
}

/** What the rooms already playing were told, and what they went through, over a slice. */
export interface PlayingFigures {
  /** Rooms of the slice that sent at least one answer in it. */
  readonly rooms: number;
  readonly answers: AnswerAccount;
  /** Client latency of the answers whose first reply was 200. */
  readonly acknowledgedMs: Summary;
  /** Client latency of every first send that got a reply or timed out. A timeout counts as longer than any reply. */
  readonly answeredMs: Summary;
  readonly missing: MissingAcks;
  readonly lettingGo: {
    /** Sockets the server closed with 1012, and the rooms they were in. */
    readonly sockets1012: number;
    readonly rooms1012: number;
    /** The "room let go" lines in the server's log for these rooms. It is null when the bench did not have the log. */
    readonly logLines: number | null;
  };
  /** Sockets the server (or the network) closed under the seats, by close code. */
  readonly socketsClosed: Record<string, number>;
  /** Seats that got back in after such a close. */
  readonly reconnects: number;
}

const inSlice = (s: Slice, at: number) => (s.from === undefined || at >= s.from) && (s.to === undefined || at < s.to);

export function playingFigures(ledger: PlayLedger, slice: Slice, letGo: readonly LetGoLine[] | undefined): PlayingFigures {
  const ofCohort = (room: string | undefined) =>
    slice.cohort === undefined || (room !== undefined && ledger.cohorts.get(room) === slice.cohort);
  const answers = ledger.answers.filter((a) => ofCohort(a.room) && inSlice(slice, a.sentAt));
  const drops = ledger.drops.filter((d) => ofCohort(d.room) && inSlice(slice, d.at));
  const socketsClosed: Record<string, number> = {};
  for (const d of drops) socketsClosed[String(d.code)] = (socketsClosed[String(d.code)] ?? 0) + 1;
  const letGo1012 = drops.filter((d) => d.code === 1012);
  return {
    rooms: new Set(answers.map((a) => a.room)).size,
    answers: accountAnswers(answers),
    acknowledgedMs: summarize(answers.filter((a) => a.status === 200).map((a) => a.ms)),
    answeredMs: summarize(answers.filter((a) => a.timedOut || a.status !== null).map((a) => (a.timedOut ? Infinity : a.ms))),
    missing: missingAcks(answers, ledger.closes),
    lettingGo: {
      sockets1012: letGo1012.length,
      rooms1012: new Set(letGo1012.map((d) => d.room)).size,
      logLines: letGo ? letGo.filter((l) => l.room !== undefined && ofCohort(l.room) && inSlice(slice, l.at)).length : null,
    },
    socketsClosed,
    reconnects: ledger.reconnects.filter((r) => ofCohort(r.room) && inSlice(slice, r.at)).length,
  };
}

/** Reads the "room let go" lines of a server log of JSON lines. It returns undefined when there is no such file. */
export function letGoLines(logFile: string | undefined): LetGoLine[] | undefined {
  if (!logFile) return undefined;
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return undefined;
  }
  const lines: LetGoLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('room let go')) continue;
    try {
      const entry = JSON.parse(line) as { time?: string; msg?: string; room?: string };
      if (!entry.msg?.startsWith('room let go')) continue;
      lines.push({ at: entry.time ? Date.parse(entry.time) : NaN, ...(entry.room ? { room: entry.room } : {}) });
    } catch {
      // This line is not a log line.
    }
  }
  return lines;
}

/** How one kind of new work (opening a room, a join, a seat's first socket) was received. */
export interface NewWorkKind {
  readonly tried: number;
  readonly admitted: number;
  /** Refusals by status and code, such as `503 overloaded`, or `no reply` when none came. */
  readonly refused: Record<string, number>;
  /** The refusals' `Retry-After` in seconds, by value. A refusal without one counts as `none`. */
  readonly retryAfter: Record<string, number>;
  /** How long a refusal took to arrive, and how long an admission took. */
  readonly refusalMs: Summary;
  readonly admittedMs: Summary;
}

export interface NewWorkFigures {
  readonly opens: NewWorkKind;
  readonly joins: NewWorkKind;
  readonly sockets: NewWorkKind;
}

const NEW_WORK = { opens: 'http POST /api/rooms', joins: 'http POST /api/rooms/:code/players', sockets: 'ws.connect' } as const;

/**
 * Collects the new work from the run's records: each open, join and first socket of the slice's
 * rooms. Reconnects are not new work.
 */
export function newWorkFigures(records: readonly CommandRecord[], slice: Slice): NewWorkFigures {
  const mine = records.filter((r) => (slice.cohort === undefined || r.cohort === slice.cohort) && !r.reconnect && inSlice(slice, r.sentAt));
  const kind = (type: string, ok: number): NewWorkKind => {
    const tried = mine.filter((r) => r.type === type);
    const admitted = tried.filter((r) => r.status === ok);
    const refusedRecords = tried.filter((r) => r.status !== ok);
    const refused: Record<string, number> = {};
    const retryAfter: Record<string, number> = {};
    for (const r of refusedRecords) {
      const key =
        r.status === null
          ? r.timedOut
            ? 'timed out'
            : 'no reply'
          : `${r.status}${r.error && r.error !== 'upgrade refused' ? ` ${r.error}` : ''}`;
      refused[key] = (refused[key] ?? 0) + 1;
      const after = typeof r.retryAfter === 'number' ? `${r.retryAfter} s` : 'none';
      retryAfter[after] = (retryAfter[after] ?? 0) + 1;
    }
    return {
      tried: tried.length,
      admitted: admitted.length,
      refused,
      retryAfter,
      refusalMs: summarize(refusedRecords.map((r) => (r.timedOut ? Infinity : r.ms))),
      admittedMs: summarize(admitted.map((r) => r.ms)),
    };
  };
  return { opens: kind(NEW_WORK.opens, 201), joins: kind(NEW_WORK.joins, 201), sockets: kind(NEW_WORK.sockets, 101) };
}

const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort(([, a], [, b]) => b - a)
    .map(([k, v]) => `${k}: ${fmtNum(v)}`)
    .join(', ') || 'none';

/** Shows the figures of rooms already playing, as a table and the notes that read it. */
export function playingSection(f: PlayingFigures, timeoutMs: number, heading = '##', title = 'Rooms already playing'): string {
  const a = f.answers;
  const v = a.verdicts;
  const ms = (s: Summary) =>
    `${fmtMs(s.p50, timeoutMs) || '-'} / ${fmtMs(s.p99, timeoutMs) || '-'} / ${fmtMs(s.max) || '-'} (n ${fmtNum(s.n)})`;
  const rows: [string, string][] = [
    ['rooms that answered', fmtNum(f.rooms)],
    ['answers sent (each once, then resent only as below)', fmtNum(a.sent)],
    ['acknowledged at once (first reply 200)', fmtNum(a.acknowledged)],
    ['acknowledged: client p50 / p99 / max ms', ms(f.acknowledgedMs)],
    ['every first reply: client p50 / p99 / max ms (a timeout counts as longer than any)', ms(f.answeredMs)],
    ['first replies by status', counts(a.firstReplies)],
    ['not acknowledged, resent under the same id after the question closed', `${fmtNum(a.resent)} of ${fmtNum(a.sent - a.acknowledged)}`],
    ['**false 503s** (first reply 503, resend 200: the answer had been recorded)', `**${fmtNum(a.false503)}**`],
    ['false refusals of any status (first reply not 200, resend 200)', counts(a.falseRefusals)],
    ['truthful refusals (resend refused: not recorded)', fmtNum(v.truthful)],
    [
      'no first reply: recorded / not recorded (the resend says)',
      `${fmtNum(v['recorded-unanswered'])} / ${fmtNum(v['not-recorded-unanswered'])}`,
    ],
    [
      'undetermined (the resend got no reply, or 503/429 again) / not resent (the run or the seat ended first)',
      `${fmtNum(v.undetermined)} / ${fmtNum(v['not-resent'])}`,
    ],
    ['answers recorded, as far as the replies tell (first 200s, and resends that show a record)', fmtNum(a.recorded)],
    ['**rooms let go**: sockets closed with 1012 (rooms)', `**${fmtNum(f.lettingGo.sockets1012)}** (${fmtNum(f.lettingGo.rooms1012)})`],
    [
      '"room let go" lines in the server log for these rooms',
      f.lettingGo.logLines === null ? 'not read (the bench did not start the server)' : fmtNum(f.lettingGo.logLines),
    ],
    ['sockets closed under the seats, by close code', counts(f.socketsClosed)],
    ['reconnects (a seat back in after such a close)', fmtNum(f.reconnects)],
    [
      '**acknowledged answers missing from `question.closed`**',
      `**${fmtNum(f.missing.missing)}** (${fmtNum(f.missing.short.length)} question(s) short of their acknowledged answers)`,
    ],
    [
      'questions with an acknowledged answer: checked / close not seen / counts seen differently by two sockets',
      `${fmtNum(f.missing.questions - f.missing.closeNotSeen)} / ${fmtNum(f.missing.closeNotSeen)} / ${fmtNum(f.missing.disagreed)}`,
    ],
  ];
  const out = [`${heading} ${title}`, '', table(['', ''], rows, ['l', 'r']), ''];
  if (f.missing.short.length) {
    out.push(
      'Questions whose counts hold fewer answers than got 200:',
      '',
      table(
        ['room', 'game', 'question', 'acknowledged', 'counted'],
        f.missing.short.slice(0, 20).map((s) => [s.room, String(s.game), String(s.question), String(s.acknowledged), String(s.counted)]),
      ),
      f.missing.short.length > 20 ? `(${f.missing.short.length - 20} more in summary.json)` : '',
      '',
    );
  }
  return out.join('\n');
}

/** Shows new work as a table: tried, admitted, refused by status, Retry-After, and how fast. */
export function newWorkSection(w: NewWorkFigures, timeoutMs: number, heading = '##', intro = ''): string {
  const ms = (s: Summary) => (s.n ? `${fmtMs(s.p50, timeoutMs)} / ${fmtMs(s.p99, timeoutMs) || '-'} / ${fmtMs(s.max)}` : '-');
  const row = (what: string, k: NewWorkKind) => [
    what,
    fmtNum(k.tried),
    fmtNum(k.admitted),
    counts(k.refused),
    Object.keys(k.retryAfter).length ? counts(k.retryAfter) : '-',
    ms(k.refusalMs),
    ms(k.admittedMs),
  ];
  return [
    `${heading} New work`,
    '',
    ...(intro ? [intro, ''] : []),
    table(
      [
        '',
        'tried',
        'admitted',
        'refused, by status',
        'Retry-After of the refusals',
        'refusal p50 / p99 / max ms',
        'admission p50 / p99 / max ms',
      ],
      [
        row('opening a room (`POST /api/rooms`)', w.opens),
        row('a join (`POST /api/rooms/:code/players`)', w.joins),
        row("a seat's first socket (the upgrade)", w.sockets),
      ],
      ['l', 'r', 'r', 'l', 'l', 'r', 'r'],
    ),
    '',
  ].join('\n');
}

/** The playing figures for summary.json, with the list of short questions capped and the rest whole. */
export function playingJson(f: PlayingFigures): unknown {
  return { ...f, missing: { ...f.missing, short: f.missing.short.slice(0, 100), shortCount: f.missing.short.length } };
}

/**
 * Issue 31's expectations of rooms already playing: no false 503, no room let go, and nothing
 * acknowledged missing.
 */
export function truthChecks(f: PlayingFigures): Check[] {
  const letGo = Math.max(f.lettingGo.sockets1012 > 0 ? f.lettingGo.rooms1012 : 0, f.lettingGo.logLines ?? 0);
  return [
    {
      what: 'false 503s (a 503 whose answer had been recorded)',
      expected: '0',
      measured: `${fmtNum(f.answers.false503)} of ${fmtNum(repliesWithStatus(f.answers.firstReplies, 503))} 503s`,
      ok: f.answers.false503 === 0,
    },
    {
      what: 'rooms let go',
      expected: '0',
      measured: `${fmtNum(f.lettingGo.sockets1012)} socket(s) closed with 1012 in ${fmtNum(f.lettingGo.rooms1012)} room(s); ${f.lettingGo.logLines === null ? 'log not read' : `${fmtNum(f.lettingGo.logLines)} "room let go" log line(s)`}`,
      ok: letGo === 0 && f.lettingGo.sockets1012 === 0,
    },
    {
      what: 'acknowledged answers missing from `question.closed`',
      expected: '0',
      measured: `${fmtNum(f.missing.missing)} (${fmtNum(f.missing.closeNotSeen)} question(s) with an acknowledged answer whose close was not seen)`,
      ok: f.missing.missing === 0,
    },
  ];
}

/** Counts the first replies of one status, whatever their codes (`503`, `503 database_unavailable`...). */
export function repliesWithStatus(replies: Record<string, number>, status: number): number {
  return Object.entries(replies)
    .filter(([k]) => k === String(status) || k.startsWith(`${status} `))
    .reduce((t, [, n]) => t + n, 0);
}

/** The server's own counts of what these modes look at, where the build has them. */
const SERVER_COUNTERS = [
  ['game_db_outcomes_settled_total', 'statements whose answer was lost, settled by reading the database'],
  ['game_limit_refusals_total', 'refusals of new work, by limit'],
  ['game_room_faults_total', 'rooms let go because their own code threw'],
  ['game_ws_silent_closes_total', 'sockets closed for not answering pings'],
  ['game_ws_evictions_total', 'sockets evicted for not keeping up'],
  ['game_unhandled_rejections_total', 'unhandled rejections'],
] as const;

function counterRows(delta: MetricsDelta): { name: string; labels: string; value: number; what: string }[] {
  return SERVER_COUNTERS.flatMap(([name, what]) =>
    delta.samples
      .filter((x) => x.name === name && x.value !== 0)
      .map((x) => ({
        name,
        labels: Object.entries(x.labels)
          .map(([k, v]) => `${k}="${v}"`)
          .join(','),
        value: x.value,
        what,
      })),
  );
}

export function serverCountersSection(figures: ServerFigures, heading = '##'): string {
  const out = [`${heading} The server's own counts`, ''];
  if (!figures.delta) return [...out, `Not available: ${figures.refused}.`, ''].join('\n');
  const rows = counterRows(figures.delta);
  const names = SERVER_COUNTERS.map(([n]) => `\`${n}\``).join(', ');
  if (!rows.length) return [...out, `Nothing counted over the play in ${names} (a build without a counter counts nothing).`, ''].join('\n');
  out.push(`Differences over the play of ${names}; only those that moved.`, '');
  out.push(
    table(
      ['counter', 'labels', 'count', 'what it counts'],
      rows.map((r) => [`\`${r.name}\``, r.labels, fmtNum(r.value), r.what]),
      ['l', 'l', 'r', 'l'],
    ),
    '',
  );
  return out.join('\n');
}

export function serverCountersJson(figures: ServerFigures): unknown {
  return figures.delta
    ? Object.fromEntries(counterRows(figures.delta).map((r) => [`${r.name}{${r.labels}}`, r.value]))
    : { refused: figures.refused };
}

/** How the rooms' set-ups ended: refused at a given step, or with an error once playing. */
export interface SetUpCounts {
  readonly refusedAt: Record<'open' | 'join' | 'socket', number>;
  readonly errors: string[];
}

export function setUpCounts(reports: readonly WatchedRoomReport[]): SetUpCounts {
  const refusedAt = { open: 0, join: 0, socket: 0 };
  const errors: string[] = [];
  for (const r of reports) {
    if (r.refusedAt) refusedAt[r.refusedAt]++;
    else if (r.error) errors.push(`${r.room ?? '(no room)'}: ${r.error}`);
  }
  return { refusedAt, errors };
}

/**
 * The rooms of a run: the mode's own rows, then the set-ups refused by step, and the rooms that ended
 * with an error (the first ten are named).
 */
export function roomsSection(rows: [string, string][], setUp: SetUpCounts): string {
  const out = [
    table(
      ['rooms', 'count'],
      [
        ...rows,
        ['set-up refused: open / join / socket', `${setUp.refusedAt.open} / ${setUp.refusedAt.join} / ${setUp.refusedAt.socket}`],
        ['ended with an error', fmtNum(setUp.errors.length)],
      ],
      ['l', 'r'],
    ),
    '',
  ];
  if (setUp.errors.length) out.push('Errors (first 10):', '', ...setUp.errors.slice(0, 10).map((e) => `- ${e}`), '');
  return out.join('\n');
}

/** The sections every report of these modes ends with: the server's own counts, the distances and the confounds. */
export function closingSections(i: {
  run: BenchRun;
  figures: ServerFigures;
  distances: Distances;
  usage: UsageReading;
  bots: BotSettings;
  load: string;
}): string[] {
  return [
    serverCountersSection(i.figures),
    distancesSection(i.distances, i.run.db ? i.run.db.delayMs : undefined),
    confoundsSection([
      ...standardConfounds(i),
      'The seats send no keep-alive pings of their own; the server pings them, and the `ws` client answers.',
    ]),
  ];
}

/** What every summary.json of these modes starts with: the mode, the command, when it ran, the build and the distance. */
export function summaryHead(mode: string, run: BenchRun, command: string, finishedAt: Date, distances: Distances): Record<string, unknown> {
  return {
    mode,
    command,
    startedAt: run.startedAt,
    finishedAt,
    interrupted: run.signal.aborted,
    build: distances.health ? { version: distances.health.version, sha: distances.health.sha } : null,
    dbDelayMs: run.db?.delayMs ?? null,
  };
}
