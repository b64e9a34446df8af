import { CommandRecord, GameReport, playTriviaRoom } from '@app/bot-kit';
import { Options, parseEnvList, splitWords, UsageError } from '../cli';
import { ecdfPoints, linePlot } from '../plot-svg';
import {
  bytesSection,
  clientRows,
  clientTable,
  confoundsSection,
  distancesSection,
  fmtMs,
  fmtRatio,
  latencies,
  rematchSection,
  roundTripsSection,
  rttOf,
  serverMean,
  serverMeanOf,
  serverSection,
  ServerFigures,
  table,
  typeOrder,
  JOURNAL_APPEND,
  rawFilesNote,
} from '../report';
import { BenchRun, BotSettings, botSettings, log, roomBotOptions, seededRandom, TargetSettings } from '../run';
import { readHealth } from '../yardstick';
import { MetricsDelta, summarize } from '../stats';
import { standardConfounds } from './games-report';

interface Arm {
  readonly name: string;
  /** A server the bench starts (command and environment), or one already running. */
  readonly command: string[];
  readonly env: Record<string, string>;
  readonly url?: string;
}

interface AbSettings {
  readonly bots: BotSettings;
  readonly arms: [Arm, Arm];
  readonly rounds: number;
  readonly games: number;
  readonly title: string;
  readonly plots: boolean;
}

export function abMode(o: Options, target: TargetSettings): (run: BenchRun, command: string) => Promise<void> {
  const bots = botSettings(o, { seats: 3, questions: 10, secondsPerQuestion: 20, revealSeconds: 1, pingSeconds: 15 });
  const arm = (k: 'a' | 'b'): Arm => {
    const cmd = o.string(`${k}-cmd`);
    const url = o.string(`${k}-url`);
    return {
      name: o.string(`${k}-name`, k.toUpperCase()),
      command: cmd ? splitWords(cmd) : target.serverCommand,
      env: { ...target.serverEnv, ...parseEnvList(o.string(`${k}-env`)) },
      url: url?.replace(/\/$/, ''),
    };
  };
  const arms: [Arm, Arm] = [arm('a'), arm('b')];
  if (target.url) throw new UsageError('ab starts its servers itself, or takes --a-url and --b-url; not --url');
  if (!!arms[0].url !== !!arms[1].url) throw new UsageError('give both --a-url and --b-url, or neither');
  if (arms[0].url && target.dbDelayMs) throw new UsageError('--db-delay-ms needs the bench to start the servers; not with --a-url/--b-url');
  if (!arms[0].url && JSON.stringify([arms[0].command, arms[0].env]) === JSON.stringify([arms[1].command, arms[1].env])) {
    throw new UsageError('the two arms are the same: give --a-cmd/--b-cmd or --a-env/--b-env (or --a-url/--b-url)');
  }
  const s: AbSettings = {
    bots,
    arms,
    rounds: o.number('rounds', 2, 1, 100),
    games: o.number('games', 2, 1, 100),
    title: o.string(
      'title',
      `A/B: ${arms[0].name} against ${arms[1].name}, database ${arms[0].url ? 'as found' : target.dbDelayMs ? `${target.dbDelayMs} ms away each way` : 'local (no delay)'}`,
    ),
    plots: !o.flag('no-plots'),
  };
  o.assertAllUsed();
  return (run, command) => runAb(run, command, s);
}

interface Block {
  readonly arm: number;
  readonly round: number;
  readonly build?: string;
  readonly figures: ServerFigures;
  readonly records: CommandRecord[];
  readonly games: GameReport[];
  readonly errors: string[];
}

/**
 * Measures two servers (two commands or two configurations) in alternating blocks, A B A B, on the
 * same database and at the same distance, so that drift in the machine or the database hits both
 * arms alike.
 */
async function runAb(run: BenchRun, command: string, s: AbSettings): Promise<void> {
  const { bots, arms } = s;
  const random = seededRandom(bots.seed);
  const blocks: Block[] = [];
  let distances: Awaited<ReturnType<BenchRun['distances']>> | undefined;
  const meter = run.usageMeter();
  outer: for (let round = 1; round <= s.rounds; round++) {
    for (let a = 0; a < 2; a++) {
      if (run.signal.aborted) break outer;
      const arm = arms[a];
      let baseUrl: string;
      if (arm.url) baseUrl = arm.url;
      else baseUrl = (await run.startServer(arm.command, arm.env))!.url;
      if (!distances) {
        distances = await run.distances();
        meter.start();
      }
      const build = await readHealth(baseUrl).then(
        (h) => `${h.version} ${h.sha}`,
        () => undefined,
      );
      log(`round ${round}, arm ${arm.name}: ${s.games} game(s)`);
      run.setTag('arm', arm.name);
      run.setTag('round', round);
      const first = run.records.length;
      const before = await run.snapshot(`round-${round}-${arm.name}-before`, baseUrl).catch(() => undefined);
      const games: GameReport[] = [];
      const errors: string[] = [];
      for (let g = 1; g <= s.games && !run.signal.aborted; g++) {
        const room = await playTriviaRoom({
          baseUrl,
          ...roomBotOptions(bots),
          record: run.record,
          random,
          signal: run.signal,
        });
        games.push(...room.games);
        if (room.error) errors.push(room.error);
      }
      const after = await run.snapshot(`round-${round}-${arm.name}-after`, baseUrl).catch(() => undefined);
      blocks.push({ arm: a, round, build, figures: BenchRun.delta(before, after), records: run.records.slice(first), games, errors });
      if (!arm.url) await run.stopServer();
    }
  }
  run.setTag('arm', undefined);
  run.setTag('round', undefined);
  const usage = distances ? meter.stop() : undefined;
  if (!distances) throw new Error('no block was played');

  const perArm = arms.map((arm, a) => {
    const mine = blocks.filter((b) => b.arm === a);
    const refused = mine.find((b) => b.figures.refused)?.figures.refused;
    const figures: ServerFigures = refused
      ? { refused: `a block of this arm was refused: ${refused}` }
      : { delta: MetricsDelta.sum(mine.map((b) => b.figures.delta!)) };
    return {
      arm,
      blocks: mine,
      records: mine.flatMap((b) => b.records),
      games: mine.flatMap((b) => b.games),
      errors: mine.flatMap((b) => b.errors),
      figures,
      builds: [...new Set(mine.map((b) => b.build ?? 'unknown'))],
    };
  });
  const rtt = rttOf(distances);
  const md: string[] = [];
  md.push(`# ${s.title}`, '');
  md.push(`Made by: \`${command}\``, '');
  md.push(
    `Run ${run.startedAt.toISOString()} to ${new Date().toISOString()}${run.signal.aborted ? ' (**interrupted**: partial results)' : ''}. Mode \`ab\`: ${s.rounds} round(s) of ${arms.map((a) => a.name).join(' then ')}, ${s.games} game(s) per block, each game in a fresh room of ${bots.seats} seat(s); ${arms[0].url ? 'both servers were already running' : "each block starts its arm's server on the same database and stops it after"}.`,
    '',
  );
  md.push('## Arms', '');
  md.push(
    table(
      ['arm', 'server', 'environment', 'build (from /health)'],
      perArm.map((p) => [
        p.arm.name,
        p.arm.url ?? `\`${p.arm.command.map((c) => (c === process.execPath ? 'node' : c.replace(run.cwd + '/', ''))).join(' ')}\``,
        Object.entries(p.arm.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ') || '(defaults)',
        p.builds.join(', '),
      ]),
      ['l', 'l', 'l', 'l'],
    ),
    '',
  );
  md.push('## Side by side', '');
  const types = [...new Set(run.records.map((r) => r.type))].filter((t) => t.startsWith('room.') || t === 'ping').sort(typeOrder);
  md.push(
    table(
      [
        'command',
        ...perArm.flatMap((p) => [
          `${p.arm.name} n`,
          `${p.arm.name} client p50 ms`,
          `${p.arm.name} client p99 ms`,
          `${p.arm.name} server mean ms`,
        ]),
        `${arms[1].name} / ${arms[0].name} server mean`,
      ],
      types.map((t) => {
        const cells = perArm.map((p) => {
          const c = summarize(latencies(p.records.filter((r) => r.type === t)));
          return { c, server: serverMean(p.figures.delta, t) };
        });
        return [
          `\`${t}\``,
          ...cells.flatMap(({ c, server }) => [
            String(c.n),
            fmtMs(c.p50, bots.commandTimeoutMs),
            fmtMs(c.p99, bots.commandTimeoutMs),
            fmtMs(server.meanMs),
          ]),
          cells[0].server.meanMs && cells[1].server.meanMs !== undefined ? fmtRatio(cells[1].server.meanMs / cells[0].server.meanMs) : '',
        ];
      }),
    ),
    '',
  );
  md.push(
    table(
      ['arm', 'mailbox wait mean ms (answers)', 'pool acquire mean ms', 'round trips per answer', 'timeouts', 'rooms failed'],
      perArm.map((p) => {
        const trips = p.figures.delta?.value('game_db_round_trips_total', { statement: JOURNAL_APPEND });
        const n = serverMean(p.figures.delta, 'room.answer').n;
        return [
          p.arm.name,
          fmtMs(serverMeanOf(p.figures.delta, 'game_mailbox_wait_seconds', { command: 'room.answer' }).meanMs),
          fmtMs(serverMeanOf(p.figures.delta, 'game_db_pool_acquire_seconds', {}).meanMs),
          trips !== undefined && n ? fmtRatio(trips / n) : '',
          String(p.records.filter((r) => r.timedOut).length),
          String(p.errors.length),
        ];
      }),
    ),
    '',
  );
  md.push('### Block by block (drift check)', '');
  md.push(
    table(
      ['round', 'arm', 'answers n', 'client p50 ms', 'server mean ms', 'timeouts'],
      blocks.map((b) => {
        const c = summarize(latencies(b.records.filter((r) => r.type === 'room.answer')));
        return [
          String(b.round),
          arms[b.arm].name,
          String(c.n),
          fmtMs(c.p50, bots.commandTimeoutMs),
          b.figures.delta ? fmtMs(serverMean(b.figures.delta, 'room.answer').meanMs) : `refused: ${b.figures.refused}`,
          String(b.records.filter((r) => r.timedOut).length),
        ];
      }),
    ),
    '',
  );
  const svgs: { name: string; content: string }[] = [];
  if (s.plots) {
    for (const t of types.filter((t) => t !== 'ping')) {
      const series = perArm.map((p) => ({
        name: `${p.arm.name} (n = ${p.records.filter((r) => r.type === t).length})`,
        points: ecdfPoints(latencies(p.records.filter((r) => r.type === t))),
        step: true,
      }));
      if (!series.some((x) => x.points.length)) continue;
      svgs.push({
        name: `ab-${t}.svg`,
        content: linePlot({
          title: `${t}: client latency, ${arms[0].name} against ${arms[1].name}`,
          subtitle: 'empirical CDF: share of commands answered within x ms (timeouts not drawn)',
          x: { label: 'ms' },
          y: { label: 'share of commands', min: 0, max: 1 },
          series,
          ...(rtt && rtt >= 1 ? { vLines: [{ at: rtt, label: `1 round trip ${fmtMs(rtt)} ms` }] } : {}),
        }),
      });
    }
    for (const svg of svgs) md.push(`![${svg.name}](${svg.name})`, '');
  }
  md.push(distancesSection(distances, run.db ? run.db.delayMs : undefined));
  md.push(
    `The distances were measured once, with arm ${arms[0].name}'s first server; both arms reach the same database by the same path.`,
    '',
  );
  for (const p of perArm) {
    md.push(`## Arm ${p.arm.name}`, '');
    md.push(clientTable(clientRows(p.records), bots.commandTimeoutMs), '');
    md.push(serverSection(p.figures, '###'));
    md.push(roundTripsSection(p.figures.delta, rtt, p.games.length, '###'));
    md.push(bytesSection(p.figures.delta, '###'));
    md.push(rematchSection(p.games, rtt, '###'));
  }
  const items = standardConfounds({
    run,
    distances,
    usage,
    bots,
    load: "One room live at a time within each block. The arms alternate on one database, which grows a little with each block; each block starts a fresh server process (cold caches, new pool connections), and the server figures of an arm add up its blocks (each block's difference checked for a restart on its own).",
  });
  md.push(confoundsSection(items));
  md.push('## Files', '');
  md.push(
    `\`${run.recordsFile}\` (each line tagged with \`arm\` and \`round\`), \`summary.json\`, the SVGs above, a server log per block, and the raw /metrics snapshots around each block (\`metrics/\`).`,
    '',
    rawFilesNote(command),
    '',
  );
  for (const svg of svgs) run.writeFile(svg.name, svg.content);
  run.writeFile('report.md', md.join('\n'));
  run.writeFile(
    'summary.json',
    JSON.stringify(
      {
        mode: 'ab',
        command,
        arms: perArm.map((p) => ({
          name: p.arm.name,
          env: p.arm.env,
          builds: p.builds,
          answer: {
            client: summarize(latencies(p.records.filter((r) => r.type === 'room.answer'))),
            serverMeanMs: serverMean(p.figures.delta, 'room.answer').meanMs ?? null,
          },
          timeouts: p.records.filter((r) => r.timedOut).length,
        })),
      },
      null,
      2,
    ),
  );
}
