import { epochMs, sleep } from '@app/bot-kit';
import { AnswerOutcome } from '../answer-truth';
import { Options, UsageError } from '../cli';
import { checksSection, fmtMs, fmtNum, rawFilesNote, table } from '../report';
import { BenchRun, BotSettings, botSettings, log, seededRandom, TargetSettings } from '../run';
import { Freeze, FreezeSchedule, ServerFreezer } from '../server-freezer';
import { PlayLedger, playWatchedRoom, setUpWatchedRoom, WatchedRoomOptions, watchedRoomOptions, WatchedRoomReport } from '../watched-room';
import {
  closingSections,
  summaryHead,
  letGoLines,
  newWorkFigures,
  newWorkSection,
  playingFigures,
  playingJson,
  playingSection,
  roomsSection,
  serverCountersJson,
  setUpCounts,
  truthChecks,
} from './truth-report';

interface SteadySettings {
  readonly bots: BotSettings;
  readonly rooms: number;
  readonly rampPerSecond: number;
  /** How long each freeze lasts. 0 means no freeze. */
  readonly starveMs: number;
  readonly starveAt: number;
  readonly starveDelayMs: number;
  readonly title: string;
}

/**
 * Sends a steady stream of answers from rooms that start together, and checks each answer for the
 * truth of its reply (watched-room.ts). With `--starve S`, the server is frozen (SIGSTOP) for S
 * seconds once per question, mid-stream, and then woken (SIGCONT). Issue 31's case is 40 rooms of 4
 * players, the database 30 ms away, and a 2.5 s freeze per question.
 */
export function steadyMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 4, questions: 4, secondsPerQuestion: 10, revealSeconds: 1, pingSeconds: 0 });
  if (bots.wire !== 'json')
    throw new UsageError('steady: the seats speak JSON only (they reconnect and resend as a page does); leave out --wire');
  if (bots.keepAliveMs > 0)
    throw new UsageError(
      'steady: the seats send no keep-alive pings of their own (the server pings every socket); leave out --ping-seconds',
    );
  const starveSeconds = o.number('starve', 0, 0, 600);
  const rooms = o.number('rooms', 40, 1, 10_000);
  const s: SteadySettings = {
    bots,
    rooms,
    rampPerSecond: o.number('ramp-per-second', 10, 0.1, 1000),
    starveMs: starveSeconds * 1000,
    starveAt: o.number('starve-at', 0.5, 0, 1),
    // The delay is long enough for the last answer's statement to reach PostgreSQL, so that its COMMIT
    // comes back while the server is frozen.
    starveDelayMs: o.number('starve-delay-ms', target.dbDelayMs + 5, 0, 60_000),
    title: o.string(
      'title',
      `Steady stream: ${rooms} rooms of ${bots.seats}, database ${target.url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms away each way` : 'local'}${starveSeconds ? `, the server frozen ${starveSeconds} s once per question` : ''}`,
    ),
  };
  o.assertAllUsed();
  if (s.starveMs > 0 && target.instanceUrls.length)
    throw new UsageError('--starve freezes one server process: it cannot be combined with --instance-urls');
  return (run, command) => runSteady(run, command, s);
}

async function runSteady(run: BenchRun, command: string, s: SteadySettings): Promise<void> {
  const { bots } = s;
  await run.startServer();
  const pid = run.serverPid;
  if (s.starveMs > 0 && pid === undefined) {
    throw new UsageError(
      '--starve freezes the server process: it must run on this machine (started by the bench, or --url of a server whose /health names its pid)',
    );
  }
  const distances = await run.distances();
  const ledger = new PlayLedger();
  const random = seededRandom(bots.seed);
  const freezer = s.starveMs > 0 ? new ServerFreezer(pid!, run.signal) : undefined;
  const probes: Promise<unknown>[] = [];
  let releaseGate!: () => void;
  const gate = new Promise<void>((r) => (releaseGate = r));
  const options = (cohort: string, seats: number): WatchedRoomOptions =>
    watchedRoomOptions(bots, { seats, baseUrl: run.baseUrl, ledger, cohort, record: run.record, random, signal: run.signal });
  // Each freeze also offers new work to the frozen server: a room to open, a seat to join, and the
  // seat's socket.
  const schedule =
    freezer &&
    new FreezeSchedule(freezer, s.starveAt, s.starveDelayMs, s.starveMs, () => probes.push(probeNewWork(options('probe', 1))), run.signal);

  log(`opening ${s.rooms} room(s) of ${bots.seats} at ${s.rampPerSecond}/s`);
  let seated = 0;
  let over = 0;
  const rooms: Promise<WatchedRoomReport>[] = [];
  for (let i = 0; i < s.rooms && !run.signal.aborted; i++) {
    const room = playWatchedRoom({
      ...options('playing', bots.seats),
      startGate: gate,
      onSeated: () => seated++,
      onAnswerSending: (g, q) => schedule?.answerSending(g, q),
    });
    rooms.push(room.finally(() => over++));
    await sleep(1000 / s.rampPerSecond, run.signal);
  }
  // Once every room is seated (or its set-up is over), every game starts at once. The questions of
  // all rooms then run side by side, so each freeze lands in the middle of every room's question.
  const seatBy = performance.now() + 60_000 + s.rooms * 100;
  while (seated + over < rooms.length && performance.now() < seatBy && !run.signal.aborted) await sleep(100, run.signal);
  if (schedule) schedule.expectedPerQuestion = seated * bots.seats;
  const before = await run.snapshot('before').catch(() => undefined);
  const meter = run.usageMeter();
  meter.start();
  const playFrom = epochMs();
  log(
    `${seated} room(s) seated; every game starts now${freezer ? `, and the server is frozen ${s.starveMs / 1000} s once per question` : ''}`,
  );
  releaseGate();
  const reports = await Promise.all(rooms);
  await schedule?.settled();
  await Promise.all(probes);
  const playTo = epochMs();
  const usage = meter.stop();
  freezer?.dispose();
  const after = await run.snapshot('after').catch(() => undefined);
  const figures = BenchRun.delta(before, after);

  const letGo = letGoLines(run.server?.logSummary().file);
  const playing = playingFigures(ledger, { cohort: 'playing', from: playFrom }, letGo);
  const newWork = newWorkFigures(run.records, { cohort: 'probe' });
  const freezes = (freezer?.freezes ?? []).map((f) => ({ ...f, ...aroundFreeze(ledger.answers, f) }));
  const setUp = setUpCounts(reports);
  const checks = truthChecks(playing);
  const finishedAt = new Date();

  const md: string[] = [`# ${s.title}`, '', `Made by: \`${command}\``, ''];
  md.push(
    `Run ${run.startedAt.toISOString()} to ${finishedAt.toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`steady\`: ${s.rooms} room(s) of ${bots.seats} player(s) and a host, opened ${s.rampPerSecond} a second; once every room was seated, every game started at the same moment (${bots.questions} question(s) of up to ${bots.secondsPerQuestion} s, reveal ${bots.revealSeconds} s). Each player answers every question once after ${bots.pause.baseMs} ms plus up to ${bots.pause.spreadMs} ms; an answer whose reply is not 200 is sent again under the same id once its question has closed: the server returns the original outcome of a recorded command and refuses a fresh one for a closed question, so a 200 then means the answer had been recorded, whatever the first reply said. Every socket the server closes is opened again, and the seat goes on from the room's state.`,
    '',
    freezer
      ? `**Starved**: when ${fmtNum(s.starveAt * 100)}% of a question's expected answers (${fmtNum(schedule!.expectedPerQuestion)}) had been sent, the bench waited ${fmtNum(s.starveDelayMs)} ms (time for the last answer's statement to reach PostgreSQL) and froze the server process (pid ${pid}) with SIGSTOP for ${fmtNum(s.starveMs / 1000, 1)} s, then SIGCONT: once per question. During each freeze the bench also opened a room, joined a seat and opened its socket (new work, below).`
      : 'No freeze (`--starve S` freezes the server S seconds once per question).',
    '',
  );
  md.push(checksSection(checks));
  md.push(
    roomsSection(
      [
        ['opened (asked)', fmtNum(rooms.length)],
        ['seated and played', fmtNum(seated)],
      ],
      setUp,
    ),
  );
  md.push(playingSection(playing, bots.commandTimeoutMs, '##', 'Rooms already playing (every answer of the games)'));
  if (freezes.length) {
    md.push(
      '## Freezes',
      '',
      table(
        ['question', 'at, s into the play', 'held ms', 'answers in flight when it began', 'of them: first reply 200 / 503 / other / none'],
        freezes.map((f) => [
          String(f.question),
          fmtNum((f.at - playFrom) / 1000, 1),
          fmtMs(f.heldMs),
          fmtNum(f.inFlight),
          `${f.inFlightReplies.ok} / ${f.inFlightReplies.unavailable} / ${f.inFlightReplies.other} / ${f.inFlightReplies.none}`,
        ]),
      ),
      '',
      '"In flight": sent before the freeze began, and answered after it (or never). Their statements were on their way to PostgreSQL or back when the process stopped.',
      '',
    );
  }
  md.push(
    newWorkSection(
      newWork,
      bots.commandTimeoutMs,
      '##',
      freezer
        ? 'One room opened, one seat joined and its socket opened at the start of each freeze (`probe` rooms), then closed again: what the frozen server told new work, and when.'
        : 'No new work was offered: without `--starve` the run opens its rooms before play and offers nothing during it.',
    ),
  );
  md.push(
    ...closingSections({
      run,
      figures,
      distances,
      usage,
      bots,
      load: `Every room starts its game at the same moment and its players answer in a steady stream; a question closes once all its players answered. ${freezer ? 'A SIGSTOP freezes the whole process at once, as a starved CPU or a stop-the-world pause does, but for longer than either usually lasts; the kernel keeps accepting bytes for its sockets meanwhile.' : ''}`,
    }),
  );
  md.push(
    '## Files',
    '',
    `\`${run.recordsFile}\` (one line per command; answers carry \`game\`, \`question\` and, for a resend, \`resend\`), \`summary.json\`, \`server.log\`, the /metrics snapshots (\`metrics/before.prom\`, \`after.prom\`).`,
    '',
    rawFilesNote(command),
    '',
  );
  run.writeFile('report.md', md.join('\n'));
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        ...summaryHead('steady', run, command, finishedAt, distances),
        settings: {
          rooms: s.rooms,
          seats: bots.seats,
          questions: bots.questions,
          secondsPerQuestion: bots.secondsPerQuestion,
          revealSeconds: bots.revealSeconds,
          pause: bots.pause,
          starveMs: s.starveMs,
          starveAt: s.starveAt,
          starveDelayMs: s.starveDelayMs,
          seed: bots.seed,
        },
        rooms: { opened: rooms.length, seated, refusedAt: setUp.refusedAt, errors: setUp.errors },
        freezes: freezes.map((f) => ({
          question: f.question,
          atMs: Math.round(f.at - playFrom),
          heldMs: Math.round(f.heldMs),
          inFlight: f.inFlight,
          inFlightReplies: f.inFlightReplies,
        })),
        playing: playingJson(playing),
        newWork,
        checks: checks.map((c) => ({ what: c.what, measured: c.measured, ok: c.ok ?? null })),
        server: serverCountersJson(figures),
        playMs: Math.round(playTo - playFrom),
      },
      null,
      2,
    ),
  );
}

/**
 * Counts the answers in flight when a freeze began (sent before it, and answered after it or never),
 * and what their first replies were.
 */
function aroundFreeze(
  answers: readonly AnswerOutcome[],
  f: Freeze,
): { inFlight: number; inFlightReplies: { ok: number; unavailable: number; other: number; none: number } } {
  const caught = answers.filter((a) => a.sentAt < f.at && (a.status === null || a.sentAt + a.ms > f.at));
  return {
    inFlight: caught.length,
    inFlightReplies: {
      ok: caught.filter((a) => a.status === 200).length,
      unavailable: caught.filter((a) => a.status === 503).length,
      other: caught.filter((a) => a.status !== null && a.status !== 200 && a.status !== 503).length,
      none: caught.filter((a) => a.status === null).length,
    },
  };
}

/**
 * Offers new work to a frozen server: it opens one room, joins one seat and opens its socket, then
 * closes all of it.
 */
async function probeNewWork(o: WatchedRoomOptions): Promise<void> {
  let seats: { close(): void }[] = [];
  const set = await setUpWatchedRoom(o, (s) => (seats = s)).catch(() => undefined);
  for (const s of seats) s.close();
  const room = set && 'code' in set ? set.code : set?.room;
  const token = set && 'code' in set ? set.hostToken : set?.hostToken;
  if (room && token)
    await fetch(`${o.baseUrl}/api/rooms/${room}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(o.commandTimeoutMs),
    }).catch(() => undefined);
}
