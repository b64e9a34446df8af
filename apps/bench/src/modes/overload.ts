import { setMaxListeners } from 'node:events';
import { epochMs, sleep } from '@app/bot-kit';
import { Options, UsageError } from '../cli';
import { Check, checksSection, fmtMs, fmtNum, rawFilesNote, table } from '../report';
import { BenchRun, BotSettings, botSettings, log, seededRandom, TargetSettings } from '../run';
import { PlayLedger, playWatchedRoom, watchedRoomOptions, WatchedRoomReport } from '../watched-room';
import {
  closingSections,
  summaryHead,
  letGoLines,
  newWorkFigures,
  newWorkSection,
  PlayingFigures,
  playingFigures,
  playingJson,
  playingSection,
  repliesWithStatus,
  roomsSection,
  setUpCounts,
  serverCountersJson,
  truthChecks,
} from './truth-report';

interface OverloadSettings {
  readonly bots: BotSettings;
  /** The rooms the server holds within the budget, measured earlier. With 0, a ladder of `rungs` finds it here. */
  readonly capacity: number;
  readonly rungs: number[];
  readonly budgetMs: number;
  readonly factor: number;
  readonly holdSeconds: number;
  readonly settleSeconds: number;
  readonly overloadSeconds: number;
  readonly rampPerSecond: number;
  readonly offerPerSecond: number;
  readonly title: string;
}

/** One window of play of the rooms already playing: its rooms and the p99 of its answers. */
interface Window {
  readonly rooms: number;
  readonly from: number;
  readonly to: number;
  figures?: PlayingFigures;
}

/**
 * Offers the server more rooms than it holds. The rooms already playing are as many as the
 * capacity: the rung where answer p99 passes the budget, found by a ladder here or given by
 * `--capacity`. They keep playing while new rooms are offered until twice that many are live or
 * being set up, and then for a steady window, with every refused or finished room replaced. The
 * report says what the rooms already playing were told (answer p99 against the capacity's, false
 * 503s, rooms let go, acknowledged answers missing), and how new work was refused (status,
 * `Retry-After`, how fast).
 */
export function overloadMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 4, questions: 10, secondsPerQuestion: 5, revealSeconds: 1, pingSeconds: 0 });
  if (bots.wire !== 'json')
    throw new UsageError('overload: the seats speak JSON only (they reconnect and resend as a page does); leave out --wire');
  if (bots.keepAliveMs > 0)
    throw new UsageError(
      'overload: the seats send no keep-alive pings of their own (the server pings every socket); leave out --ping-seconds',
    );
  const rampPerSecond = o.number('ramp-per-second', 20, 0.1, 1000);
  const s: OverloadSettings = {
    bots,
    capacity: o.number('capacity', 0, 0, 1_000_000),
    rungs: o.numbers('rungs', [50, 100, 200, 400, 800, 1200, 1600, 2000, 2500, 3000]),
    budgetMs: o.number('budget-ms', 50, 1, 60_000),
    factor: o.number('factor', 2, 1, 100),
    holdSeconds: o.number('hold-seconds', 20, 2, 3600),
    settleSeconds: o.number('settle-seconds', 5, 0, 600),
    overloadSeconds: o.number('overload-seconds', 30, 2, 3600),
    rampPerSecond,
    offerPerSecond: o.number('offer-per-second', rampPerSecond, 0.1, 1000),
    title: o.string(
      'title',
      `Overload: rooms of ${bots.seats} seats offered past capacity, database ${target.url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms away each way` : 'local'}`,
    ),
  };
  o.assertAllUsed();
  return (run, command) => runOverload(run, command, s);
}

async function runOverload(run: BenchRun, command: string, s: OverloadSettings): Promise<void> {
  const { bots } = s;
  await run.startServer();
  const distances = await run.distances();
  const ledger = new PlayLedger();
  const random = seededRandom(bots.seed);
  // Rooms play game after game until the run ends. Then every socket is dropped at once.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  run.signal.addEventListener('abort', () => stop.abort(), { once: true });
  const live = { playing: 0, new: 0 };
  let seated = 0;
  const rooms: Promise<WatchedRoomReport>[] = [];
  const open = (cohort: 'playing' | 'new') => {
    live[cohort]++;
    const options = watchedRoomOptions(bots, {
      baseUrl: run.baseUrl,
      ledger,
      cohort,
      record: run.record,
      random,
      signal: stop.signal,
      anotherGame: () => !stop.signal.aborted,
      onSeated: () => cohort === 'playing' && seated++,
    });
    rooms.push(playWatchedRoom(options).finally(() => live[cohort]--));
  };
  /** Opens rooms already playing up to `n`, waits until they are seated, then lets their games get under way. */
  const openPlaying = async (n: number) => {
    while (live.playing < n && !run.signal.aborted) {
      open('playing');
      await sleep(1000 / s.rampPerSecond, run.signal);
    }
    const seatBy = performance.now() + 60_000 + (bots.secondsPerQuestion + bots.revealSeconds) * 1000;
    while (seated < live.playing && performance.now() < seatBy && !run.signal.aborted) await sleep(250, run.signal);
    await sleep(s.settleSeconds * 1000, run.signal);
  };
  const hold = async (seconds: number): Promise<Window> => {
    const from = epochMs();
    await sleep(seconds * 1000, run.signal);
    return { rooms: live.playing, from, to: epochMs() };
  };
  const p99Of = (w: Window) => playingFigures(ledger, { cohort: 'playing', from: w.from, to: w.to }, undefined).answeredMs.p99;

  // The capacity is either given, or the first rung of a ladder whose answer p99 passes the budget.
  const search: Window[] = [];
  let capacity = s.capacity;
  let baseline: Window | undefined;
  let capacityNote: string;
  if (capacity > 0) {
    log(`capacity given: ${capacity} room(s); opening them at ${s.rampPerSecond}/s`);
    await openPlaying(capacity);
    baseline = await hold(s.holdSeconds);
    capacityNote = `given by \`--capacity ${capacity}\` (measured by an earlier run)`;
  } else {
    for (const rung of s.rungs) {
      if (run.signal.aborted) break;
      log(`rung ${rung}: opening ${Math.max(0, rung - live.playing)} room(s) at ${s.rampPerSecond}/s`);
      await openPlaying(rung);
      const w = await hold(s.holdSeconds);
      search.push(w);
      const p99 = p99Of(w);
      log(`rung ${rung}: answer p99 ${fmtMs(p99, bots.commandTimeoutMs)} ms (budget ${s.budgetMs} ms)`);
      if (p99 !== undefined && p99 > s.budgetMs) {
        capacity = rung;
        baseline = w;
        break;
      }
    }
    if (!baseline && search.length) {
      baseline = search[search.length - 1];
      capacity = baseline.rooms;
    }
    capacityNote =
      baseline && p99Of(baseline)! > s.budgetMs
        ? `the first rung of the ladder below whose answer p99 passed ${s.budgetMs} ms`
        : `the ladder's last rung: no rung passed ${s.budgetMs} ms, so this is a floor`;
  }
  if (!baseline) throw new Error('the run ended before the capacity was measured');
  const target = Math.round(capacity * s.factor);

  // Go past capacity: offer new rooms until `target` are live or being set up, then hold there.
  const snapshotBefore = await run.snapshot('overload-before').catch(() => undefined);
  const meter = run.usageMeter();
  meter.start();
  const rampFrom = epochMs();
  const playingAtRamp = live.playing;
  let offered = 0;
  log(
    `overload: offering new rooms at ${s.offerPerSecond}/s up to ${target} live (${fmtNum(s.factor, 1)} x ${capacity}), then ${s.overloadSeconds} s there`,
  );
  while (offered < target - capacity && !run.signal.aborted) {
    open('new');
    offered++;
    await sleep(1000 / s.offerPerSecond, run.signal);
  }
  const holdFrom = epochMs();
  const holdUntil = performance.now() + s.overloadSeconds * 1000;
  while (performance.now() < holdUntil && !run.signal.aborted) {
    if (live.playing + live.new < target) {
      open('new');
      offered++;
    }
    await sleep(1000 / s.offerPerSecond, run.signal);
  }
  const holdTo = epochMs();
  const usage = meter.stop();
  const snapshotAfter = await run.snapshot('overload-after').catch(() => undefined);
  // Every question with an answer in the window closes within a question's time, and its refused
  // answers are resent then. Wait for both before dropping the sockets.
  const closedBy = performance.now() + bots.secondsPerQuestion * 1000 + 1000;
  const drainBy = performance.now() + (bots.secondsPerQuestion + bots.revealSeconds) * 1000 + bots.commandTimeoutMs + 2000;
  log(`overload over: waiting for the window's questions to close and ${ledger.pendingResends} resend(s) to be answered`);
  while ((performance.now() < closedBy || ledger.pendingResends > 0) && performance.now() < drainBy && !run.signal.aborted)
    await sleep(250, run.signal);
  stop.abort();
  const reports = await Promise.all(rooms);
  const figures = BenchRun.delta(snapshotBefore, snapshotAfter);

  const letGo = letGoLines(run.server?.logSummary().file);
  for (const w of [...search, baseline]) w.figures ??= playingFigures(ledger, { cohort: 'playing', from: w.from, to: w.to }, letGo);
  const overload = playingFigures(ledger, { cohort: 'playing', from: rampFrom, to: holdTo }, letGo);
  const atTarget = playingFigures(ledger, { cohort: 'playing', from: holdFrom, to: holdTo }, letGo);
  const admitted = playingFigures(ledger, { cohort: 'new', from: rampFrom, to: holdTo }, letGo);
  const newWork = newWorkFigures(run.records, { cohort: 'new', from: rampFrom, to: holdTo });
  const baseP99 = baseline.figures!.answeredMs.p99;
  const ratio = baseP99 !== undefined && atTarget.answeredMs.p99 !== undefined ? atTarget.answeredMs.p99 / baseP99 : undefined;
  const refusedWith503 = repliesWithStatus(newWork.opens.refused, 503);
  const checks: Check[] = [
    {
      what: `answer p99 of the rooms already playing, at ${fmtNum(s.factor, 1)} x capacity against at capacity`,
      expected: 'at most 3 times',
      measured: `${fmtMs(atTarget.answeredMs.p99, bots.commandTimeoutMs)} ms against ${fmtMs(baseP99, bots.commandTimeoutMs)} ms${ratio !== undefined && Number.isFinite(ratio) ? ` (${ratio.toFixed(2)} times)` : ''}`,
      ok: ratio === undefined ? undefined : ratio <= 3,
    },
    ...truthChecks(overload),
    {
      what: 'new rooms refused with 503 and Retry-After',
      expected: 'yes',
      measured: `${fmtNum(refusedWith503)} of ${fmtNum(newWork.opens.tried)} opens refused with 503; Retry-After on the refusals: ${
        Object.entries(newWork.opens.retryAfter)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ') || 'none'
      }`,
      ok: refusedWith503 > 0 && !('none' in newWork.opens.retryAfter),
    },
  ];
  const finishedAt = new Date();
  const setUp = setUpCounts(reports);

  const md: string[] = [`# ${s.title}`, '', `Made by: \`${command}\``, ''];
  md.push(
    `Run ${run.startedAt.toISOString()} to ${finishedAt.toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`overload\`: rooms of ${bots.seats} player(s) and a host play game after game (${bots.questions} question(s) of up to ${bots.secondsPerQuestion} s, reveal ${bots.revealSeconds} s, answers after ${bots.pause.baseMs} ms plus up to ${bots.pause.spreadMs} ms). **Capacity ${fmtNum(capacity)} rooms**: ${capacityNote}. Those rooms, the rooms already playing, kept playing while new rooms were offered ${s.offerPerSecond} a second until ${fmtNum(target)} (${fmtNum(s.factor, 1)} x capacity) were live or being set up, then for ${s.overloadSeconds} s at that level, each refused or finished one replaced by a new offer. A new room is set up as new work is: each step tried once (opening it, each join, each seat's first socket); a refused step ends it and it is closed again.`,
    '',
    "Every answer is sent once; one whose reply is not 200 is sent again under the same id once its question has closed, and a 200 then means the answer had been recorded (a false refusal). Every socket the server closes is opened again, and the seat goes on from the room's state.",
    '',
  );
  md.push(checksSection(checks));
  md.push(
    '## The rooms already playing, window by window',
    '',
    table(
      ['window', 'rooms playing', 'answers sent', 'client p50 / p99 ms', 'first replies', 'false 503s', 'sockets closed 1012'],
      [
        ...(s.capacity
          ? [['at capacity (given)', baseline] as const]
          : search.map((w) => [`ladder rung ${w.rooms}${w === baseline ? ' (capacity)' : ''}`, w] as const)),
        ['overload: the ramp and the hold', { rooms: playingAtRamp, from: rampFrom, to: holdTo, figures: overload }] as const,
        [`overload: the hold at ${fmtNum(target)}`, { rooms: playingAtRamp, from: holdFrom, to: holdTo, figures: atTarget }] as const,
      ].map(([label, w]) => {
        const f = w.figures!;
        return [
          label,
          fmtNum(f.rooms),
          fmtNum(f.answers.sent),
          `${fmtMs(f.answeredMs.p50, bots.commandTimeoutMs)} / ${fmtMs(f.answeredMs.p99, bots.commandTimeoutMs)}`,
          Object.entries(f.answers.firstReplies)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', '),
          fmtNum(f.answers.false503),
          fmtNum(f.lettingGo.sockets1012),
        ];
      }),
      ['l', 'r', 'r', 'r', 'l', 'r', 'r'],
    ),
    '',
    `p99 is over every first send of the window that got a reply or timed out (a timeout counts as longer than any). The capacity rule is the ladder's: the first rung whose answer p99 passes ${s.budgetMs} ms (\`--budget-ms\`).`,
    '',
  );
  md.push(playingSection(overload, bots.commandTimeoutMs, '##', 'Rooms already playing, through the overload (the ramp and the hold)'));
  md.push(
    newWorkSection(
      newWork,
      bots.commandTimeoutMs,
      '##',
      `${fmtNum(offered)} new room(s) offered from the start of the ramp to the end of the hold; refused ones were closed and replaced by new offers.`,
    ),
  );
  md.push(playingSection(admitted, bots.commandTimeoutMs, '##', 'New rooms that were admitted and played'));
  md.push(
    roomsSection(
      [
        ['rooms already playing, opened', fmtNum(reports.length - offered)],
        ['new rooms offered', fmtNum(offered)],
      ],
      setUp,
    ),
  );
  md.push(
    ...closingSections({
      run,
      figures,
      distances,
      usage,
      bots,
      load: 'Rooms already playing were opened before the overload and kept playing game after game; new rooms arrived at a steady rate, not in bursts. The bench runs on the same machine as the server: past capacity it competes with the server for the CPU, as the load generator of the issue did.',
    }),
  );
  md.push(
    '## Files',
    '',
    `\`${run.recordsFile}\` (one line per command, tagged with its room's \`cohort\`: \`playing\` or \`new\`; answers carry \`game\`, \`question\`, \`resend\`), \`summary.json\`, \`server.log\`, the /metrics snapshots around the overload.`,
    '',
    rawFilesNote(command),
    '',
  );
  run.writeFile('report.md', md.join('\n'));
  const windowJson = (w: Window) => ({
    rooms: w.rooms,
    p50: w.figures!.answeredMs.p50 ?? null,
    p99: w.figures!.answeredMs.p99 ?? null,
    answers: w.figures!.answers.sent,
    firstReplies: w.figures!.answers.firstReplies,
    false503: w.figures!.answers.false503,
  });
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        ...summaryHead('overload', run, command, finishedAt, distances),
        capacity,
        capacityGiven: s.capacity > 0,
        target,
        budgetMs: s.budgetMs,
        search: search.map(windowJson),
        baseline: windowJson(baseline),
        overload: {
          offered,
          rampSeconds: (holdFrom - rampFrom) / 1000,
          holdSeconds: (holdTo - holdFrom) / 1000,
          p99AtTarget: atTarget.answeredMs.p99 ?? null,
          p99Ratio: ratio ?? null,
        },
        playing: playingJson(overload),
        playingAtTarget: windowJson({ rooms: playingAtRamp, from: holdFrom, to: holdTo, figures: atTarget }),
        admitted: playingJson(admitted),
        newWork,
        checks: checks.map((c) => ({ what: c.what, measured: c.measured, ok: c.ok ?? null })),
        server: serverCountersJson(figures),
      },
      null,
      2,
    ),
  );
}
