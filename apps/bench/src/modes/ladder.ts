import { pgStatementsTable, readPgStatements, resetPgStatements, StatementCost } from '../pg-statements';
import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { CommandRecord, epochMs, playTriviaRoom, RoomReport, sleep } from '@app/bot-kit';
import { Options } from '../cli';
import { UsageReading } from '../host-usage';
import { linePlot, stackPlots } from '../plot-svg';
import {
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
  roundTripsSection,
  bytesSection,
  rttOf,
  serverMean,
  serverMeanOf,
  serverSection,
  ServerFigures,
  table,
  usageText,
  JOURNAL_APPEND,
  rawFilesNote,
} from '../report';
import { BenchRun, BotSettings, botSettings, log, roomBotOptions, seededRandom, TargetSettings } from '../run';
import { MetricsDelta, summarize, Summary } from '../stats';
import { standardConfounds } from './games-report';
import {
  bytesPerAnswer,
  cpuMsPerAnswer,
  fmtSyscallsPerAnswer,
  RssReading,
  rssPerSocketKb,
  serverRss,
  syscallsPerAnswer,
} from './ladder-costs';

interface LadderSettings {
  readonly bots: BotSettings;
  readonly rungs: number[];
  readonly holdSeconds: number;
  readonly settleSeconds: number;
  readonly rampPerSecond: number;
  readonly budgetMs: number;
  readonly maxMinutes: number;
  readonly maxErrorRate: number;
  readonly stopP99Ms: number;
  readonly title: string;
  readonly plots: boolean;
}

/** One rung as measured: its window, the records sent in it, and the server's /metrics difference over it. */
interface Rung {
  readonly rooms: number;
  readonly roomsLive: { start: number; end: number };
  readonly sockets?: number;
  readonly windowStart: number;
  windowEnd: number;
  readonly figures: ServerFigures;
  readonly usage?: UsageReading;
  /** The server's RSS at the end of the window. */
  readonly rss?: RssReading;
  /** PostgreSQL's statements over the window, when --pg-statements is given. */
  readonly pgStatements?: StatementCost[];
  /** Why the ladder stopped here, if it did. */
  stoppedBecause?: string;
  /** Filled in at the end, once late replies and timeouts are in. */
  records: CommandRecord[];
}

export function ladderMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 4, questions: 10, secondsPerQuestion: 5, revealSeconds: 1, pingSeconds: 30 });
  const s: LadderSettings = {
    bots,
    rungs: o.numbers('rungs', [10, 50, 100, 250, 500, 1000, 1250, 1500, 2000]),
    holdSeconds: o.number('hold-seconds', 30, 5, 3600),
    settleSeconds: o.number('settle-seconds', 5, 0, 600),
    rampPerSecond: o.number('ramp-per-second', 20, 1, 1000),
    budgetMs: o.number('budget-ms', 50, 1, 60_000),
    maxMinutes: o.number('max-minutes', 10, 1, 240),
    maxErrorRate: o.number('max-error-rate', 0.01, 0, 1),
    stopP99Ms: o.number('stop-p99-ms', 2000, 1, 600_000),
    title: o.string(
      'title',
      `Ladder: rooms of ${bots.seats} seats, database ${target.url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms each way` : 'local'}, wire ${bots.wire}`,
    ),
    plots: !o.flag('no-plots'),
  };
  o.assertAllUsed();
  return (run, command) => runLadder(run, command, s);
}

/** The bench's soft limit on open files, where each socket is one file. The bench does not raise the limit. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

async function runLadder(run: BenchRun, command: string, s: LadderSettings): Promise<void> {
  const { bots } = s;
  // Rungs that the bench itself cannot open (it needs one file descriptor per socket) are left out,
  // and the log says so.
  const limit = openFileLimit();
  const perRoom = bots.seats + 1;
  const fits = (rooms: number) => limit === undefined || rooms * perRoom <= limit * 0.9 - 200;
  const skippedRungs = s.rungs.filter((r) => !fits(r));
  if (skippedRungs.length) {
    log(`rungs ${skippedRungs.join(', ')} need more sockets than this process may open (ulimit -n ${limit}); they are left out`);
    s = { ...s, rungs: s.rungs.filter(fits) };
  }
  const started = performance.now();
  const deadline = started + s.maxMinutes * 60_000;
  const timeLeft = () => deadline - performance.now();
  await run.startServer();
  const distances = await run.distances();
  // Measure the idle process before any room opens. What each rung's sockets add is measured from
  // this.
  const idleRss = serverRss(run.serverPid, undefined) ?? serverRss(undefined, await run.snapshot('idle').catch(() => undefined));
  const overall = run.usageMeter();
  overall.start();

  const random = seededRandom(bots.seed);
  // Rooms play game after game until the ladder ends. Then every socket is dropped at once.
  const stopRooms = new AbortController();
  setMaxListeners(0, stopRooms.signal);
  run.signal.addEventListener('abort', () => stopRooms.abort(), { once: true });
  const rooms: Promise<RoomReport>[] = [];
  const failures: string[] = [];
  let live = 0;
  let seated = 0;
  let gamesPlayed = 0;
  const openRoom = () => {
    live++;
    let wasSeated = false;
    const p = playTriviaRoom({
      baseUrl: run.baseUrl,
      ...roomBotOptions(bots),
      record: run.record,
      random,
      signal: stopRooms.signal,
      anotherGame: () => !stopRooms.signal.aborted,
      onSeated: () => {
        wasSeated = true;
        seated++;
      },
      onGame: () => gamesPlayed++,
    }).then((report) => {
      live--;
      if (wasSeated) seated--;
      if (report.error) failures.push(report.error);
      return report;
    });
    rooms.push(p);
  };

  /** Errors among the records sent in the last `ms`, for stopping early. */
  const recentErrorRate = (ms: number) => {
    const since = epochMs() - ms;
    let n = 0;
    let bad = 0;
    for (let i = run.records.length - 1; i >= 0 && run.records[i].sentAt >= since; i--) {
      n++;
      if (isError(run.records[i])) bad++;
    }
    return { n, rate: n ? bad / n : 0 };
  };
  const collapsing = () => {
    const recent = recentErrorRate(10_000);
    return recent.n >= 50 && recent.rate > Math.max(0.2, s.maxErrorRate * 5);
  };

  const rungs: Rung[] = [];
  let stopReason: string | undefined;
  for (const target of s.rungs) {
    if (run.signal.aborted) {
      stopReason = 'interrupted';
      break;
    }
    // Opening the rooms, settling and holding the window must fit in what is left of the time cap.
    const needSeconds = Math.max(0, target - live) / s.rampPerSecond + s.settleSeconds + s.holdSeconds + 5;
    if (timeLeft() < needSeconds * 1000) {
      stopReason = `the time cap (--max-minutes ${s.maxMinutes}) left no room for the ${target}-room rung (about ${fmtNum(needSeconds)} s needed, ${fmtNum(Math.max(0, timeLeft()) / 1000)} s left)`;
      break;
    }
    run.setTag('rung', target);
    log(`rung ${target} rooms: opening ${Math.max(0, target - live)} room(s) at ${s.rampPerSecond}/s`);
    const meter = run.usageMeter();
    const rampSnapshot = await run.snapshot().catch(() => undefined);
    meter.start();
    const rampStart = epochMs();
    let rampBroke: string | undefined;
    while (live < target && !run.signal.aborted) {
      openRoom();
      await sleep(1000 / s.rampPerSecond, run.signal);
      if (rooms.length % 20 === 0 && collapsing()) {
        rampBroke = `errors passed ${fmtNum(Math.max(0.2, s.maxErrorRate * 5) * 100)}% of commands while opening rooms (${live} open)`;
        break;
      }
      if (timeLeft() <= 0) {
        stopReason = `the time cap (--max-minutes ${s.maxMinutes}) was reached while opening rooms for the ${target}-room rung (${live} open)`;
        break;
      }
    }
    if (stopReason) break;
    if (rampBroke) {
      // There is no steady window to speak of, so the rung is reported over its ramp, and the ladder
      // ends.
      const usage = meter.stop();
      const procRss = serverRss(run.serverPid, undefined);
      const after = await run.snapshot(`rung-${target}-after`).catch(() => undefined);
      rungs.push({
        rooms: target,
        roomsLive: { start: live, end: live },
        sockets: after?.value('game_sockets_open'),
        windowStart: rampStart,
        windowEnd: epochMs(),
        figures: BenchRun.delta(rampSnapshot, after),
        usage,
        rss: procRss ?? serverRss(undefined, after),
        records: [],
        stoppedBecause: `${rampBroke} (figures over the ramp, not a steady window)`,
      });
      stopReason = `the ${target}-room rung broke: ${rampBroke}`;
      break;
    }
    // Wait until every room is seated (or failed), then settle briefly so that games are under way.
    const seatBy = performance.now() + 60_000 + (bots.secondsPerQuestion + bots.revealSeconds) * 1000;
    while (seated < live && performance.now() < seatBy && !run.signal.aborted) await sleep(250, run.signal);
    await sleep(s.settleSeconds * 1000, run.signal);
    if (run.signal.aborted) {
      stopReason = 'interrupted';
      break;
    }

    const before = await run.snapshot(`rung-${target}-before`).catch(() => undefined);
    const pgUrl = run.target.pgStatements ? run.db?.directUrl : undefined;
    if (pgUrl) await resetPgStatements(pgUrl);
    meter.start();
    const windowStart = epochMs();
    const roomsAtStart = live;
    log(`rung ${target} rooms: holding ${s.holdSeconds} s with ${live} room(s) live (${seated} seated)`);
    let holdBroke: string | undefined;
    const holdUntil = performance.now() + s.holdSeconds * 1000;
    while (!holdBroke && performance.now() < holdUntil && !run.signal.aborted) {
      await sleep(Math.min(1000, holdUntil - performance.now()), run.signal);
      if (collapsing()) holdBroke = `errors passed ${fmtNum(Math.max(0.2, s.maxErrorRate * 5) * 100)}% of commands during the hold`;
    }
    const windowEnd = epochMs();
    const usage = meter.stop();
    // Read the RSS before the /metrics scrape, because the scrape allocates memory in the server.
    const procRss = serverRss(run.serverPid, undefined);
    const after = await run.snapshot(`rung-${target}-after`).catch(() => undefined);
    const pgStatements = pgUrl ? await readPgStatements(pgUrl) : undefined;
    const sockets = after?.value('game_sockets_open');
    const rung: Rung = {
      rooms: target,
      roomsLive: { start: roomsAtStart, end: live },
      sockets,
      windowStart,
      windowEnd,
      figures: BenchRun.delta(before, after),
      usage,
      rss: procRss ?? serverRss(undefined, after),
      pgStatements,
      records: [],
    };
    rungs.push(rung);

    // Decide on what has arrived so far. The report recomputes once late replies are in.
    const so = rungStats(run.records.filter((r) => r.sentAt >= windowStart && r.sentAt < windowEnd));
    log(
      `rung ${target} rooms: answers n=${so.answers.n} p50 ${fmtMs(so.answers.p50)} ms p99 ${fmtMs(so.answers.p99)} ms, errors ${so.errors}/${so.commands}, timeouts ${so.timeouts}, server mean ${fmtMs(serverMean(rung.figures.delta, 'room.answer').meanMs)} ms, bench loop p99 ${fmtMs(usage.loopDelay.p99)} ms`,
    );
    const reasons: string[] = [];
    if (holdBroke) reasons.push(holdBroke);
    if (so.commands && so.errors / so.commands > s.maxErrorRate)
      reasons.push(`errors were ${fmtNum((so.errors / so.commands) * 100, 1)}% of commands (limit ${fmtNum(s.maxErrorRate * 100, 1)}%)`);
    if (so.timeouts > 0) reasons.push(`${so.timeouts} command(s) timed out`);
    if (so.answers.p99 !== undefined && so.answers.p99 > s.stopP99Ms)
      reasons.push(`answer p99 ${fmtMs(so.answers.p99, bots.commandTimeoutMs)} ms passed ${fmtNum(s.stopP99Ms)} ms`);
    if (reasons.length) {
      rung.stoppedBecause = reasons.join('; ');
      stopReason = `the ${target}-room rung broke: ${rung.stoppedBecause}`;
      break;
    }
  }
  if (!stopReason) stopReason = 'every rung asked for was run';
  log(`ladder over: ${stopReason}`);
  run.setTag('rung', undefined);

  // Replies still on their way may yet arrive or time out, so wait for them before dropping sockets.
  const lastEnd = rungs.length ? rungs[rungs.length - 1].windowEnd : epochMs();
  const waitFor = Math.max(0, lastEnd + bots.commandTimeoutMs + 500 - epochMs());
  if (!run.signal.aborted && waitFor > 0) {
    log(`waiting ${fmtNum(waitFor / 1000, 1)} s for replies still in flight`);
    await sleep(waitFor, run.signal);
  }
  stopRooms.abort();
  await Promise.all(rooms);
  const usage = overall.stop();
  for (const rung of rungs) rung.records = run.records.filter((r) => r.sentAt >= rung.windowStart && r.sentAt < rung.windowEnd);

  if (skippedRungs.length)
    stopReason += `; rungs ${skippedRungs.join(', ')} were left out: they need more sockets than the bench may open (ulimit -n ${limit}, ${perRoom} sockets per room)`;
  const { markdown, svgs } = ladderReport({
    run,
    command,
    s,
    distances,
    idleRss,
    rungs,
    stopReason,
    failures,
    usage,
    gamesPlayed,
    roomsOpened: rooms.length,
  });
  for (const svg of svgs) run.writeFile(svg.name, svg.content);
  run.writeFile('report.md', markdown);
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        mode: 'ladder',
        command,
        startedAt: run.startedAt,
        finishedAt: new Date(),
        build: distances.health ? { version: distances.health.version, sha: distances.health.sha } : null,
        budgetMs: s.budgetMs,
        wire: s.bots.wire,
        idleRssBytes: idleRss?.bytes ?? null,
        rssSource: idleRss?.source ?? null,
        stopReason,
        rungs: rungs.map((r) => {
          const st = rungStats(r.records, s.budgetMs, { start: r.windowStart, end: r.windowEnd });
          const served = serverMean(r.figures.delta, 'room.answer');
          return {
            rooms: r.rooms,
            roomsLive: r.roomsLive,
            sockets: r.sockets ?? null,
            answers: st.answers,
            secondsOverBudget: st.secondsOverBudget,
            seconds: st.seconds,
            commands: st.commands,
            errors: st.errors,
            timeouts: st.timeouts,
            serverAnswerMeanMs: served.meanMs ?? null,
            serverRefused: r.figures.refused ?? null,
            cpuPercent: r.usage?.cpuPercent ?? null,
            cpuMsPerAnswer: {
              server: cpuMsPerAnswer(r.usage, 'server', served.n) ?? null,
              postgres: cpuMsPerAnswer(r.usage, 'postgres', served.n) ?? null,
            },
            rssBytes: r.rss?.bytes ?? null,
            rssPerSocketKb: rssPerSocketKb(idleRss, r.rss, r.sockets) ?? null,
            syscallsPerAnswer: {
              server: syscallsPerAnswer(r.usage, 'server', served.n) ?? null,
              postgres: syscallsPerAnswer(r.usage, 'postgres', served.n) ?? null,
            },
            bytesToSocketsPerAnswer: bytesPerAnswer(r.figures.delta, served.n) ?? null,
            benchLoopDelayP99Ms: r.usage?.loopDelay.p99 ?? null,
            stoppedBecause: r.stoppedBecause ?? null,
          };
        }),
      },
      null,
      2,
    ),
  );
}

function fmtCpuMs(ms: number | undefined): string {
  return ms === undefined ? '-' : ms.toFixed(2);
}

function fmtMb(bytes: number | undefined): string {
  return bytes === undefined ? 'not available' : fmtNum(bytes / 2 ** 20, 1);
}

function fmtKb(kb: number | undefined): string {
  return kb === undefined ? '-' : fmtNum(kb, 1);
}

function fmtBytes(bytes: number | undefined): string {
  return bytes === undefined ? '-' : fmtNum(bytes, 0);
}

function rssSourceText(r: RssReading): string {
  return r.source === 'proc'
    ? 'VmRSS of /proc/PID/status'
    : "the server's `process_resident_memory_bytes` from /metrics (not a process on this machine)";
}

interface RungStats {
  readonly answers: Summary;
  /** The number of one-second slots in the window, and of those in which some answer took longer than the budget. */
  readonly seconds: number;
  readonly secondsOverBudget: number;
  readonly commands: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly errorKinds: Record<string, number>;
}

function rungStats(records: readonly CommandRecord[], budgetMs = Infinity, window?: { start: number; end: number }): RungStats {
  const answerRecords = records.filter((r) => r.type === 'room.answer');
  const answers = summarize(latencies(answerRecords));
  // A tail made of a few stalls shows as a few slow seconds, and a slow server shows as many.
  const seconds = window ? Math.max(1, Math.ceil((window.end - window.start) / 1000)) : 0;
  const slow = new Set<number>();
  if (window) for (const r of answerRecords) if (r.timedOut || r.ms > budgetMs) slow.add(Math.floor((r.sentAt - window.start) / 1000));
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  for (const r of records) {
    if (!isError(r)) continue;
    errors++;
    const kind = `${r.type} ${r.timedOut ? 'timed out' : (r.status ?? 'no reply')}${r.error && !r.timedOut ? ` ${r.error}` : ''}`;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  }
  return {
    answers,
    seconds,
    secondsOverBudget: slow.size,
    commands: records.length,
    errors,
    timeouts: records.filter((r) => r.timedOut).length,
    errorKinds,
  };
}

function ladderReport(i: {
  run: BenchRun;
  command: string;
  s: LadderSettings;
  distances: Awaited<ReturnType<BenchRun['distances']>>;
  idleRss?: RssReading;
  rungs: Rung[];
  stopReason: string;
  failures: string[];
  usage: UsageReading;
  gamesPlayed: number;
  roomsOpened: number;
}): { markdown: string; svgs: { name: string; content: string }[] } {
  const { run, s, rungs } = i;
  const stats = rungs.map((r) => rungStats(r.records, s.budgetMs, { start: r.windowStart, end: r.windowEnd }));
  const firstOver = rungs.find((r, k) => !(stats[k].answers.p99 !== undefined && stats[k].answers.p99! <= s.budgetMs));
  const firstErrors = rungs.find((r, k) => stats[k].errors > 0);
  // Find the highest rung that held, with every rung up to it within the budget and without errors.
  let held: Rung | undefined;
  for (let k = 0; k < rungs.length; k++) {
    if (stats[k].answers.p99 !== undefined && stats[k].answers.p99! <= s.budgetMs && stats[k].errors === 0) held = rungs[k];
    else break;
  }
  const target = 1250;
  const md: string[] = [];
  md.push(`# ${s.title}`, '');
  md.push(`Made by: \`${i.command}\``, '');
  md.push(
    `Run ${run.startedAt.toISOString()} to ${new Date().toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`ladder\`: rooms of ${s.bots.seats} player seat(s) and a host, opened ${s.rampPerSecond} per second, each playing ${s.bots.questions}-question games back to back (every rematch accepted) with a ${s.bots.secondsPerQuestion} s question clock and ${s.bots.revealSeconds} s reveal. Each rung adds rooms up to its count, waits until they are seated, settles ${s.settleSeconds} s, then holds a ${s.holdSeconds} s window: everything below is measured over the windows only. Budget: \`room.answer\` client p99 <= ${s.budgetMs} ms. The ladder stops at the first rung with more than ${fmtNum(s.maxErrorRate * 100, 1)}% errors, any timeout, or an answer p99 over ${fmtNum(s.stopP99Ms)} ms, or after ${s.maxMinutes} minutes.`,
    '',
    `Wire profile: **${s.bots.wire}**${s.bots.wire === 'json' ? ' (plain JSON frames)' : ` (every bot socket asks for \`wire=${s.bots.wire}\` and decodes each frame it receives back into the JSON frame, so the bots play as with JSON)`}. Server RSS idle: **${i.idleRss ? `${fmtMb(i.idleRss.bytes)} MB` : 'not available'}**${i.idleRss ? ` (${rssSourceText(i.idleRss)}, after the distances and before any room opened)` : ''}.`,
    '',
  );
  md.push('## Headline', '');
  md.push(
    [
      `- Highest rung within the budget with no errors (and every rung below it too): **${held ? `${held.rooms} rooms (${fmtNum(held.sockets)} sockets)` : 'none'}**.`,
      `- p99 first left the budget at: **${firstOver ? `${firstOver.rooms} rooms` : 'no rung'}**; errors first appeared at: **${firstErrors ? `${firstErrors.rooms} rooms` : 'no rung'}**.`,
      `- The ladder stopped because ${i.stopReason}.`,
      `- ${i.roomsOpened} rooms opened in all, ${i.gamesPlayed} games finished, ${i.failures.length} room(s) failed${i.failures.length ? ` (${[...new Set(i.failures)].slice(0, 3).join('; ')})` : ''}.`,
    ].join('\n'),
    '',
  );
  // The expectation is about rooms of 4 seats on a durable local PostgreSQL with a 50 ms budget.
  const applicable = [
    ...(s.bots.seats !== 4 ? [`rooms of ${s.bots.seats} seats, not 4`] : []),
    ...(s.budgetMs !== 50 ? [`budget ${s.budgetMs} ms, not 50`] : []),
    ...(run.target.dbDelayMs ? [`database ${run.target.dbDelayMs} ms away, not local`] : []),
    ...(run.target.url ? ['a server the bench did not start'] : []),
    ...(run.target.pgFast ? ['durability off (--pg-fast)'] : []),
  ];
  const checks = [
    {
      what: `At least ${fmtNum(target)} rooms of 4 seats (${fmtNum(target * 4)} player sockets) on local PostgreSQL with answer p99 <= 50 ms`,
      expected: `a rung of >= ${fmtNum(target)} rooms within budget, all rungs below too`,
      measured: held ? `held up to ${held.rooms} rooms` : 'no rung held',
      ok: applicable.length === 0 ? !!held && held.rooms >= target : undefined,
      note: applicable.join('; '),
    },
  ];
  md.push(checksSection(checks));
  md.push('## Rungs', '');
  md.push(
    table(
      [
        'rooms',
        'live (start/end)',
        'sockets (players + hosts)',
        'answers n',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'seconds with an answer over budget',
        'server mean ms',
        'mailbox wait ms',
        'pool acquire ms',
        'round trips per answer',
        'errors / commands',
        'timeouts',
        'CPU % server / postgres / bench / machine',
        'CPU ms per answer, server / postgres',
        'server RSS MB, idle / at rung',
        'RSS per socket KB',
        'server write / read syscalls per answer',
        'postgres write / read syscalls per answer',
        'bytes to sockets per answer',
        'bench loop p99 ms',
        'verdict',
      ],
      rungs.map((r, k) => {
        const st = stats[k];
        const d = r.figures.delta;
        const answersServer = serverMean(d, 'room.answer');
        const trips = d?.value('game_db_round_trips_total', { statement: JOURNAL_APPEND });
        const cpu = r.usage?.cpuPercent ?? {};
        const ok = st.answers.p99 !== undefined && st.answers.p99 <= s.budgetMs;
        return [
          String(r.rooms),
          `${r.roomsLive.start} / ${r.roomsLive.end}`,
          fmtNum(r.sockets),
          String(st.answers.n),
          fmtMs(st.answers.p50, s.bots.commandTimeoutMs),
          fmtMs(st.answers.p95, s.bots.commandTimeoutMs),
          fmtMs(st.answers.p99, s.bots.commandTimeoutMs),
          `${st.secondsOverBudget} of ${st.seconds}`,
          d ? fmtMs(answersServer.meanMs) : `refused`,
          fmtMs(serverMeanOf(d, 'game_mailbox_wait_seconds', { command: 'room.answer' }).meanMs),
          fmtMs(serverMeanOf(d, 'game_db_pool_acquire_seconds', {}).meanMs),
          trips !== undefined && answersServer.n ? fmtRatio(trips / answersServer.n) : '',
          `${st.errors} / ${st.commands}`,
          String(st.timeouts),
          [cpu.server, cpu.postgres, cpu.bench, cpu.machine].map((v) => (v === undefined ? '-' : fmtNum(v))).join(' / '),
          (['server', 'postgres'] as const).map((who) => fmtCpuMs(cpuMsPerAnswer(r.usage, who, answersServer.n))).join(' / '),
          `${fmtMb(i.idleRss?.bytes)} / ${fmtMb(r.rss?.bytes)}`,
          fmtKb(rssPerSocketKb(i.idleRss, r.rss, r.sockets)),
          fmtSyscallsPerAnswer(r.usage, 'server', answersServer.n),
          fmtSyscallsPerAnswer(r.usage, 'postgres', answersServer.n),
          fmtBytes(bytesPerAnswer(d, answersServer.n)),
          fmtMs(r.usage?.loopDelay.p99),
          r.stoppedBecause
            ? `**broke**: ${r.stoppedBecause}`
            : ok && st.errors === 0
              ? 'within budget'
              : ok
                ? 'within budget, with errors'
                : '**over budget**',
        ];
      }),
      ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
  );
  md.push(
    'Client p50/p95/p99 are over the `room.answer` commands sent in the window (timeouts count as beyond the timeout); "seconds with an answer over budget" counts the one-second slots of the window in which at least one answer (by its send time) took longer than the budget: a tail made of a few stalls shows as a few such seconds, a server slow throughout as most of them; server figures are exact means from the /metrics difference over the same window (refused if the server restarted). CPU is percent of one core over the window, for the server, PostgreSQL (all its processes), the bench, and the whole machine (anything beyond the first three is other people\'s work); CPU ms per answer is that CPU time of the window divided by the `room.answer` commands the server handled in it (everything the process did, questions and reveals included, charged to answers); the machine has ' +
      `${BenchRun.machine()}. ` +
      `Server RSS is read once idle and once at the end of each rung's window (${i.idleRss ? rssSourceText(i.idleRss) : 'not available: neither /proc nor /metrics gave it'}); RSS is in MB of 1,048,576 bytes; RSS per socket is (RSS at the rung - idle RSS) / the sockets open, in KB of 1,024 bytes: each socket's share of everything the server holds for its room, heap the collector has not yet returned included; at a small rung it also carries what the server grows once whatever the load (compiled code, pool connections, buffers), so read it at rungs of hundreds of rooms. ` +
      'Syscalls per answer are the differences over the window of `syscw` and `syscr` in /proc/PID/io (every read and write system call of the process, each socket writev and read among them; for PostgreSQL the postmaster and its children) divided by the `room.answer` commands the server handled; "not available" where /proc could not be read (a server or database on another machine). ' +
      `Bytes to sockets per answer is the difference of \`game_ws_outbound_bytes_total\` (every kind, wire ${s.bots.wire}) over the window divided by the same answers; the detail below splits it by kind.`,
    '',
  );
  const errorRows = rungs.flatMap((r, k) => Object.entries(stats[k].errorKinds).map(([kind, n]) => [String(r.rooms), kind, String(n)]));
  if (errorRows.length) {
    md.push('### Errors by kind', '');
    md.push(table(['rooms', 'command and outcome', 'count'], errorRows, ['r', 'l', 'r']), '');
  }
  md.push(...whereTheTimeWent(rungs, stats, s, i.idleRss));
  const svgs: { name: string; content: string }[] = [];
  if (s.plots && rungs.length) {
    const xs = rungs.map((r) => r.rooms);
    const pts = (f: (k: number) => number | undefined) =>
      rungs.flatMap((r, k) => (f(k) !== undefined && Number.isFinite(f(k)!) ? [[r.rooms, f(k)!] as [number, number]] : []));
    const latency = linePlot({
      title: 'room.answer latency against concurrent rooms',
      subtitle: `rooms of ${s.bots.seats} seats; client percentiles over each ${s.holdSeconds} s window; server exact mean from /metrics`,
      x: { label: 'concurrent rooms', log: true, ticks: xs, min: xs[0] / 1.4, max: xs[xs.length - 1] * 1.4 },
      y: { label: 'ms', log: true },
      series: [
        { name: 'client p50', points: pts((k) => stats[k].answers.p50) },
        { name: 'client p99', points: pts((k) => stats[k].answers.p99) },
        { name: 'server exact mean', points: pts((k) => serverMean(rungs[k].figures.delta, 'room.answer').meanMs), dashed: true },
      ],
      hLines: [{ at: s.budgetMs, label: `budget: p99 <= ${s.budgetMs} ms`, color: '#d62728' }],
    });
    const errors = linePlot({
      title: 'Errors and timeouts against concurrent rooms',
      subtitle: 'commands in each window that got no success: non-2xx replies, no reply, timeouts',
      x: { label: 'concurrent rooms', log: true, ticks: xs, min: xs[0] / 1.4, max: xs[xs.length - 1] * 1.4 },
      y: { label: 'commands', min: 0, integer: true },
      series: [
        { name: 'errors (all kinds)', points: pts((k) => stats[k].errors), color: '#d62728' },
        { name: 'timeouts', points: pts((k) => stats[k].timeouts), color: '#ff7f0e', dashed: true },
      ],
      height: 300,
    });
    svgs.push({ name: 'ladder.svg', content: stackPlots([latency, errors]) });
    md.push('![ladder.svg](ladder.svg)', '');
  }
  md.push(distancesSection(i.distances, run.db ? run.db.delayMs : undefined));
  const last = rungs[rungs.length - 1];
  for (const [label, rung] of [
    ['the highest rung within the budget', held],
    ['the last rung', last !== held ? last : undefined],
  ] as const) {
    if (!rung) continue;
    md.push(`## Detail of ${label}: ${rung.rooms} rooms`, '');
    md.push(clientTable(clientRows(rung.records), s.bots.commandTimeoutMs), '');
    md.push(serverSection(rung.figures, '###'));
    md.push(roundTripsSection(rung.figures.delta, rttOf(i.distances), 0, '###'));
    md.push(bytesSection(rung.figures.delta, '###'));
    if (rung.pgStatements) {
      const seconds = (rung.windowEnd - rung.windowStart) / 1000;
      md.push(`### PostgreSQL's statements over the window (pg_stat_statements, --pg-statements)`, '');
      md.push(
        `Execution time only (not parsing, commits or the protocol), over ${fmtNum(seconds, 0)} s; a statement run inside a function (the guard's update, a foreign-key check) is listed on its own as well.`,
        '',
      );
      md.push(...pgStatementsTable(rung.pgStatements, seconds), '');
    }
  }
  const items = standardConfounds({
    run,
    distances: i.distances,
    usage: i.usage,
    bots: s.bots,
    load: `Rooms were opened ${s.rampPerSecond} per second and kept playing; each rung's window starts after its rooms are seated, so it measures steady play, not the ramp (HTTP joins and socket opens happen in the ramp). Real rooms arrive and leave at random, start games at random, and spend most of their life in a lobby.`,
  });
  // A question closes when every seat has answered, so its cycle is the slowest pause plus the reveal.
  const n = s.bots.seats;
  const slowest = (s.bots.pause.baseMs + (s.bots.pause.spreadMs * n) / (n + 1)) / 1000;
  const rate = (reveal: number) => n / (slowest + reveal);
  items.push(
    `Load per room: a question closes once all ${n} seats have answered (expected slowest pause ${fmtNum(slowest, 2)} s), then ${s.bots.revealSeconds} s of reveal, so each room sends about ${fmtNum(rate(s.bots.revealSeconds), 2)} answers a second; with the protocol's 4 s reveal it would be ${fmtNum(rate(4), 2)}, and real players think longer than ${fmtNum((s.bots.pause.baseMs + s.bots.pause.spreadMs) / 1000, 1)} s. A rung here is a heavier load than the same number of real rooms.`,
  );
  items.push(`Overall, ${usageText(i.usage)}`);
  md.push(confoundsSection(items));
  md.push('## Files', '');
  md.push(
    `\`${run.recordsFile}\` (one line per command with its \`rung\`), \`summary.json\`, \`ladder.svg\`, \`server.log\`, and the raw /metrics snapshots around each window (\`metrics/rung-<rooms>-before.prom\`, \`-after.prom\`).`,
    '',
    rawFilesNote(i.command),
    '',
  );
  return { markdown: md.join('\n'), svgs };
}

/**
 * Puts the last rung within the budget beside the first rung over it: the server's parts of an
 * answer's time, CPU by process, and the bench's own delay, so that a reader can see where the time
 * went. It gives figures only, and leaves the reading to the note in the report's folder.
 */
function whereTheTimeWent(
  rungs: readonly Rung[],
  stats: readonly RungStats[],
  s: LadderSettings,
  idleRss: RssReading | undefined,
): string[] {
  const over = rungs.findIndex(
    (_, k) => !(stats[k].answers.p99 !== undefined && stats[k].answers.p99! <= s.budgetMs) || stats[k].errors > 0,
  );
  if (over < 0) return [];
  const pick = [over - 1, over, over + 1, rungs.length - 1].filter((k, i, all) => k >= 0 && k < rungs.length && all.indexOf(k) === i);
  const row = (label: string, f: (k: number) => string) => [label, ...pick.map(f)];
  const d = (k: number) => rungs[k].figures.delta;
  const cpu = (k: number, who: string) => rungs[k].usage?.cpuPercent[who];
  const total = (k: number) => ['server', 'postgres', 'bench', 'proxy'].reduce((t, w) => t + (cpu(k, w) ?? 0), 0);
  const answers = (k: number) => serverMean(d(k), 'room.answer').n;
  const cores = cpus().length;
  return [
    `## Where the time went, around rung ${rungs[over].rooms}`,
    '',
    table(
      ['', ...pick.map((k) => `${rungs[k].rooms} rooms`)],
      [
        row(
          'answer client p50 / p99 ms',
          (k) => `${fmtMs(stats[k].answers.p50, s.bots.commandTimeoutMs)} / ${fmtMs(stats[k].answers.p99, s.bots.commandTimeoutMs)}`,
        ),
        row(`seconds of the window with an answer over ${s.budgetMs} ms`, (k) => `${stats[k].secondsOverBudget} of ${stats[k].seconds}`),
        row('answers per second', (k) =>
          fmtNum(stats[k].answers.n / Math.max(1e-9, (rungs[k].windowEnd - rungs[k].windowStart) / 1000), 0),
        ),
        row('answer server exact mean ms', (k) => fmtMs(serverMean(d(k), 'room.answer').meanMs)),
        row('  of which mailbox wait ms', (k) => fmtMs(serverMeanOf(d(k), 'game_mailbox_wait_seconds', { command: 'room.answer' }).meanMs)),
        row('  of which journal append ms (checkout included)', (k) =>
          fmtMs(serverMeanOf(d(k), 'game_db_statement_duration_seconds', { statement: JOURNAL_APPEND }).meanMs),
        ),
        row(
          `server: answers slower than ${fmtBoundMs(tailBound(d(over), s.budgetMs))} ms (the bucket bound nearest below the budget)`,
          (k) => serverTail(d(k), tailBound(d(over), s.budgetMs)),
        ),
        row('pool acquire mean ms (all statements)', (k) => fmtMs(serverMeanOf(d(k), 'game_db_pool_acquire_seconds', {}).meanMs)),
        row('errors / timeouts', (k) => `${stats[k].errors} / ${stats[k].timeouts}`),
        row('CPU % server / postgres / bench', (k) =>
          ['server', 'postgres', 'bench'].map((w) => (cpu(k, w) === undefined ? '-' : fmtNum(cpu(k, w)))).join(' / '),
        ),
        row('CPU ms per answer, server / postgres', (k) =>
          ['server', 'postgres'].map((w) => fmtCpuMs(cpuMsPerAnswer(rungs[k].usage, w, answers(k)))).join(' / '),
        ),
        row(
          'server RSS MB at the rung / per socket KB',
          (k) => `${fmtMb(rungs[k].rss?.bytes)} / ${fmtKb(rssPerSocketKb(idleRss, rungs[k].rss, rungs[k].sockets))}`,
        ),
        row('server write / read syscalls per answer', (k) => fmtSyscallsPerAnswer(rungs[k].usage, 'server', answers(k))),
        row('postgres write / read syscalls per answer', (k) => fmtSyscallsPerAnswer(rungs[k].usage, 'postgres', answers(k))),
        row('bytes to sockets per answer', (k) => fmtBytes(bytesPerAnswer(d(k), answers(k)))),
        row(
          `CPU % this run's processes / whole machine (of ${cores * 100}% on ${cores} cores)`,
          (k) => `${fmtNum(total(k))} / ${fmtNum(cpu(k, 'machine'))}`,
        ),
        row(
          'bench event-loop delay p99 / max ms',
          (k) => `${fmtMs(rungs[k].usage?.loopDelay.p99)} / ${fmtMs(rungs[k].usage?.loopDelay.max)}`,
        ),
      ],
      ['l', ...pick.map(() => 'r' as const)],
    ),
    '',
    "The server mean is the time from an answer frame's arrival to its reply; its parts are the wait in the room's mailbox and the statement (whose time includes the pool checkout). The server row counts, from the histogram's bucket differences (exact at a bucket bound), the answers whose server time alone passed the bound: when that share is about 1% or more, the p99 tail is the server's own, not the bench's. A bench event-loop delay close to the client p99 would mean the bench was the limit.",
    '',
  ];
}

/** The largest histogram bucket bound at or below the budget. The server's tail is counted above it. */
function tailBound(delta: MetricsDelta | undefined, budgetMs: number): number {
  const bounds = (delta?.histograms('game_command_duration_seconds', ['command']) ?? []).flatMap((h) => h.buckets.map((b) => b.leMs));
  const below = [...new Set(bounds)].filter((b) => b <= budgetMs);
  return below.length ? Math.max(...below) : budgetMs;
}

function fmtBoundMs(ms: number): string {
  return String(Number(ms.toPrecision(4)));
}

/** How many of the server's answers took longer than `boundMs`, from bucket counts. It is exact at a bucket bound. */
function serverTail(delta: MetricsDelta | undefined, boundMs: number): string {
  const [h] = (delta?.histograms('game_command_duration_seconds', ['command']) ?? []).filter((x) => x.labels.command === 'room.answer');
  if (!h) return '';
  const slow = h.buckets.filter((b) => b.leMs > boundMs + 1e-9).reduce((t, b) => t + b.count, 0);
  return `${fmtNum(slow)} of ${fmtNum(h.count)} (${fmtNum((slow / h.count) * 100, 2)}%)`;
}
