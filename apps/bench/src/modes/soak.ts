import { setMaxListeners } from 'node:events';
import { epochMs, GameReport, playTriviaRoom, sleep } from '@app/bot-kit';
import { Options } from '../cli';
import { linePlot, stackPlots } from '../plot-svg';
import { clientRows, fmtMs, fmtNum, isError, latencies, rttOf, serverMean, table } from '../report';
import { BenchRun, BotSettings, botSettings, log, roomBotOptions, seededRandom, TargetSettings } from '../run';
import { summarize } from '../stats';
import { gamesReport, Svg } from './games-report';

interface SoakSettings {
  readonly bots: BotSettings;
  readonly minutes: number;
  readonly rooms: number;
  readonly gamesPerRoom: number;
  readonly rampPerSecond: number;
  readonly title: string;
  readonly plots: boolean;
}

export function soakMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 4, questions: 10, secondsPerQuestion: 20, revealSeconds: 4, pingSeconds: 15 });
  const minutes = o.number('minutes', 10, 0.5, 24 * 60);
  const rooms = o.number('rooms', 20, 1, 10_000);
  const s: SoakSettings = {
    bots,
    minutes,
    rooms,
    gamesPerRoom: o.number('games-per-room', 3, 1, 1000),
    rampPerSecond: o.number('ramp-per-second', 5, 0.1, 1000),
    title: o.string(
      'title',
      `Soak: ${rooms} rooms of ${bots.seats} seats for ${minutes} minutes, database ${target.url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms away each way` : 'local (no delay)'}`,
    ),
    plots: !o.flag('no-plots'),
  };
  o.assertAllUsed();
  return (run, command) => runSoak(run, command, s);
}

interface Minute {
  readonly minute: number;
  readonly start: number;
  readonly end: number;
  readonly rssBytes?: number;
  readonly heapBytes?: number;
  readonly roomsActive?: number;
  readonly sockets?: number;
}

/**
 * Keeps a steady number of rooms for a long while. Each room plays a few games (rematches
 * accepted), its seats leave, and a fresh room takes its place. The mode looks for drift in latency,
 * errors and the server's memory, minute by minute.
 */
async function runSoak(run: BenchRun, command: string, s: SoakSettings): Promise<void> {
  const { bots } = s;
  await run.startServer();
  const distances = await run.distances();
  const meter = run.usageMeter();
  const before = await run.snapshot('before').catch(() => undefined);
  meter.start();
  const random = seededRandom(bots.seed);
  const ending = new AbortController(); // no new games, no new rooms
  const drop = new AbortController(); // drop every socket now
  setMaxListeners(0, ending.signal, drop.signal);
  run.signal.addEventListener('abort', () => (ending.abort(), drop.abort()), { once: true });
  const games: GameReport[] = [];
  const roomErrors: string[] = [];

  const slot = async (k: number) => {
    await sleep((k / s.rampPerSecond) * 1000, ending.signal);
    while (!ending.signal.aborted) {
      const room = await playTriviaRoom({
        baseUrl: run.baseUrl,
        ...roomBotOptions(bots),
        record: run.record,
        random,
        signal: drop.signal,
        anotherGame: (played) => played < s.gamesPerRoom && !ending.signal.aborted,
        onGame: (g) => games.push(g),
      });
      if (room.error) {
        roomErrors.push(room.error);
        // A failing server should not be hammered by instant retries.
        await sleep(1000, ending.signal);
      }
    }
  };
  const slots = Array.from({ length: s.rooms }, (_, k) => slot(k));

  const minutes: Minute[] = [];
  const startedAt = epochMs();
  const endAt = performance.now() + s.minutes * 60_000;
  for (let m = 1; performance.now() < endAt && !run.signal.aborted; m++) {
    const start = epochMs();
    await sleep(Math.min(60_000, endAt - performance.now()), run.signal);
    const snap = await run.snapshot().catch(() => undefined);
    const minute: Minute = {
      minute: m,
      start,
      end: epochMs(),
      rssBytes: snap?.value('process_resident_memory_bytes'),
      heapBytes: snap?.value('nodejs_heap_size_used_bytes'),
      roomsActive: snap?.value('game_rooms_active'),
      sockets: snap?.value('game_sockets_open'),
    };
    minutes.push(minute);
    const answers = summarize(latencies(run.records.filter((r) => r.type === 'room.answer' && r.sentAt >= start && r.sentAt < minute.end)));
    log(
      `minute ${m}: answers n=${answers.n} p50 ${fmtMs(answers.p50)} ms p99 ${fmtMs(answers.p99)} ms, server RSS ${fmtNum((minute.rssBytes ?? 0) / 2 ** 20)} MiB, ${games.length} games so far`,
    );
  }
  // Let rooms finish the game they are in, then leave. Drop whatever is still going after that.
  log('ending: rooms finish their game and leave');
  ending.abort();
  const graceMs = bots.questions * (bots.secondsPerQuestion + bots.revealSeconds) * 1000 + bots.commandTimeoutMs + 10_000;
  const finished = await Promise.race([Promise.all(slots).then(() => true), sleep(graceMs, run.signal).then(() => false)]);
  if (!finished) {
    log('rooms still playing after the grace period: dropping them');
    drop.abort();
    await Promise.all(slots);
  }
  const usage = meter.stop();
  const after = await run.snapshot('after').catch(() => undefined);
  const figures = BenchRun.delta(before, after);

  const minuteRows = minutes.map((m) => {
    const recs = run.records.filter((r) => r.sentAt >= m.start && r.sentAt < m.end);
    const answers = summarize(latencies(recs.filter((r) => r.type === 'room.answer')));
    return { m, answers, errors: recs.filter(isError).length, commands: recs.length };
  });
  const perMinute = [
    '## Minute by minute',
    '',
    table(
      [
        'minute',
        'answers n',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'errors / commands',
        'server RSS MiB',
        'server heap used MiB',
        'rooms active',
        'sockets',
      ],
      minuteRows.map(({ m, answers, errors, commands }) => [
        String(m.minute),
        String(answers.n),
        fmtMs(answers.p50, bots.commandTimeoutMs),
        fmtMs(answers.p95, bots.commandTimeoutMs),
        fmtMs(answers.p99, bots.commandTimeoutMs),
        `${errors} / ${commands}`,
        m.rssBytes !== undefined ? fmtNum(m.rssBytes / 2 ** 20, 1) : '',
        m.heapBytes !== undefined ? fmtNum(m.heapBytes / 2 ** 20, 1) : '',
        fmtNum(m.roomsActive),
        fmtNum(m.sockets),
      ]),
    ),
    '',
  ];
  const svgs: Svg[] = [];
  if (s.plots && minuteRows.length) {
    const latency = linePlot({
      title: 'room.answer client latency, minute by minute',
      x: { label: 'minute of the soak', min: 0, max: Math.max(1, minuteRows.length), integer: true },
      y: { label: 'ms', min: 0 },
      series: [
        {
          name: 'client p50',
          points: minuteRows.flatMap((r) =>
            r.answers.p50 !== undefined && Number.isFinite(r.answers.p50) ? [[r.m.minute, r.answers.p50] as [number, number]] : [],
          ),
        },
        {
          name: 'client p99',
          points: minuteRows.flatMap((r) =>
            r.answers.p99 !== undefined && Number.isFinite(r.answers.p99) ? [[r.m.minute, r.answers.p99] as [number, number]] : [],
          ),
        },
      ],
    });
    const memory = linePlot({
      title: 'Server memory, minute by minute',
      x: { label: 'minute of the soak', min: 0, max: Math.max(1, minuteRows.length), integer: true },
      y: { label: 'MiB', min: 0 },
      series: [
        {
          name: 'resident set',
          points: minuteRows.flatMap((r) => (r.m.rssBytes !== undefined ? [[r.m.minute, r.m.rssBytes / 2 ** 20] as [number, number]] : [])),
        },
        {
          name: 'JS heap used',
          points: minuteRows.flatMap((r) =>
            r.m.heapBytes !== undefined ? [[r.m.minute, r.m.heapBytes / 2 ** 20] as [number, number]] : [],
          ),
          dashed: true,
        },
      ],
      height: 300,
    });
    svgs.push({ name: 'soak.svg', content: stackPlots([latency, memory]) });
    perMinute.push('![soak.svg](soak.svg)', '');
  }
  const report = gamesReport({
    run,
    title: s.title,
    command,
    intro: [
      `Run ${run.startedAt.toISOString()} to ${new Date().toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`soak\`: ${s.rooms} room(s) at a time for ${s.minutes} minute(s); each room plays ${s.gamesPerRoom} game(s) (rematches accepted), then its seats leave and a fresh room takes its place. ${games.length} games reached their rematch vote. Figures below cover the whole soak, from ${new Date(startedAt).toISOString()}.`,
    ],
    distances,
    records: run.records,
    games,
    roomErrors,
    figures,
    usage,
    bots,
    load: `${s.rooms} rooms at a time, each a few games long, replaced as they finish; rooms were opened ${s.rampPerSecond} per second at the start.`,
    plots: s.plots,
    extraSections: perMinute,
    rematchSummaryOnly: true,
  });
  for (const svg of [...report.svgs, ...svgs]) run.writeFile(svg.name, svg.content);
  run.writeFile('report.md', report.markdown);
  const answers = clientRows(run.records).find((r) => r.type === 'room.answer');
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        mode: 'soak',
        command,
        startedAt: run.startedAt,
        finishedAt: new Date(),
        rttMs: rttOf(distances) ?? null,
        answer: { client: answers?.summary ?? null, serverMeanMs: serverMean(figures.delta, 'room.answer').meanMs ?? null },
        games: games.length,
        minutes: minuteRows.map((r) => ({ minute: r.m.minute, answers: r.answers, errors: r.errors, rssBytes: r.m.rssBytes ?? null })),
        serverRefused: figures.refused ?? null,
      },
      null,
      2,
    ),
  );
}
