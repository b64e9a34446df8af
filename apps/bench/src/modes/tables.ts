import { ChildProcess, fork } from 'node:child_process';
import { cpus } from 'node:os';
import { EgressShaper, epochMs, HUMAN_PAUSE, sleep } from '@app/bot-kit';
import { WireProfile, wireProfileOf } from '@app/protocol';
import { Options, UsageError } from '../cli';
import { cpuSeconds } from '../host-usage';
import { BenchRun, log, WIRE_WORDS } from '../run';
import { CoordinatorMessage, SHARD_ARG, ShardConfig, ShardMessage, ShardResult } from '../tables-shard';
import { Distances } from '../yardstick';
import { cellSummary, CellSummary, tablesReport } from './tables-report';
import { CellRun, TablesSettings } from './tables-result';

/** A ramp long enough to open the tables at about 50 a second and see their first hands. */
export function defaultRampSeconds(tables: number): number {
  return Math.max(10, Math.ceil(tables / 50) + 6);
}

export function tablesMode(o: Options): (run: BenchRun, command: string) => Promise<void> {
  const ladderList = o.string('ladder');
  const rungs = ladderList !== undefined ? o.numbers('ladder', []) : [o.number('tables', 100, 1, 100_000)];
  if (ladderList !== undefined && o.string('tables') !== undefined)
    throw new UsageError('give --tables N for one run or --ladder N1,N2,... for a ladder, not both');
  const wires = (o.string('wire', 'json') ?? 'json').split(',').map((w) => {
    const p = wireProfileOf(w.trim());
    if (!p) throw new UsageError(`--wire takes ${WIRE_WORDS} (comma-separated for several), got '${w}'`);
    return p;
  });
  if (new Set(wires).size !== wires.length) throw new UsageError('--wire names a profile twice');
  const think = o.string('bot-think-ms', '400,1500').split(',').map(Number);
  if (think.length !== 2 || think.some((t) => !Number.isInteger(t) || t < 0) || think[0] > think[1])
    throw new UsageError(`--bot-think-ms must be MIN,MAX whole milliseconds, got '${o.string('bot-think-ms')}'`);
  const egress = o.string('egress-mbps');
  const egressMbps = egress === undefined ? undefined : o.number('egress-mbps', 0, 0.001, 100_000);
  const ramp = o.string('ramp-seconds');
  const s: TablesSettings = {
    rungs: [...rungs].sort((a, b) => a - b),
    ladder: ladderList !== undefined,
    wires,
    seconds: o.number('seconds', 60, 1, 3600),
    rampSeconds: ramp === undefined ? undefined : o.number('ramp-seconds', 0, 1, 3600),
    shards: o.number('shards', Math.min(4, Math.max(1, cpus().length)), 1, 64),
    egressMbps,
    shaperBufferBytes: o.number('shaper-buffer-kib', 64, 2, 65_536) * 1024,
    kneeMs: o.number('knee-ms', 250, 1, 600_000),
    table: {
      bots: o.number('bots', 5, 1, 8),
      actionSeconds: o.number('action-seconds', 15, 0.2, 600),
      botThinkMs: [think[0], think[1]],
      handPauseMs: o.number('hand-pause-ms', 2000, 0, 60_000),
    },
    pause: {
      baseMs: o.number('pause-ms', HUMAN_PAUSE.baseMs, 0, 60_000),
      spreadMs: o.number('pause-spread-ms', HUMAN_PAUSE.spreadMs, 0, 60_000),
    },
    commandTimeoutMs: o.number('command-timeout-ms', 10_000, 100, 600_000),
    seed: o.number('seed', 1, 0, 2 ** 31),
    title: o.string('title') ?? defaultTitle(rungs, wires, egressMbps, ladderList !== undefined),
    plots: !o.flag('no-plots'),
  };
  if (!Number.isInteger(s.shards)) throw new UsageError('--shards must be a whole number');
  o.assertAllUsed();
  return (run, command) => runTables(run, command, s);
}

function defaultTitle(rungs: readonly number[], wires: readonly string[], mbps: number | undefined, ladder: boolean): string {
  const link = mbps === undefined ? 'no egress limit' : `egress limited to ${mbps} Mbit/s`;
  return ladder
    ? `Tables ladder: ${rungs.join(', ')} tables, ${wires.join(' / ')}, ${link}`
    : `Card tables: ${rungs[0]} tables, ${wires.join(' / ')}, ${link}`;
}

async function runTables(run: BenchRun, command: string, s: TablesSettings): Promise<void> {
  await run.startServer();
  const distances = await run.distances();
  const serverPid = run.serverPid;
  let shaper: EgressShaper | undefined;
  let socketUrl = run.baseUrl;
  if (s.egressMbps !== undefined) {
    const u = new URL(run.baseUrl);
    shaper = new EgressShaper({ host: u.hostname, port: Number(u.port) }, { mbps: s.egressMbps, bufferBytes: s.shaperBufferBytes });
    await shaper.start();
    socketUrl = shaper.shapedUrl(run.baseUrl);
    log(
      `egress shaper at ${socketUrl}: server-to-bench bytes limited to ${s.egressMbps} Mbit/s, ${s.shaperBufferBytes / 1024} KiB queue per connection`,
    );
  }
  const overall = run.usageMeter();
  overall.start();
  const cells: CellRun[] = [];
  try {
    for (let r = 0; r < s.rungs.length && !run.signal.aborted; r++) {
      // Profiles take turns within a rung, and each rung starts with the next profile, so that no
      // profile is always first.
      const order = s.wires.map((_, i) => s.wires[(i + r) % s.wires.length]);
      for (const wire of order) {
        if (run.signal.aborted) break;
        cells.push(await runCell(run, s, s.rungs[r], wire, socketUrl, serverPid, shaper));
      }
    }
  } finally {
    await shaper?.stop();
  }
  const usage = overall.stop();
  run.setTag('rung', undefined);
  run.setTag('wire', undefined);
  const summaries: CellSummary[] = cells.map((c) => cellSummary(c, run.records, s));
  const { markdown, svgs, summary } = tablesReport({ run, command, s, distances, cells, summaries, usage, serverPid });
  for (const svg of svgs) run.writeFile(svg.name, svg.content);
  run.writeFile('report.md', markdown);
  run.writeFile('summary.json', JSON.stringify(summary, null, 2));
}

async function runCell(
  run: BenchRun,
  s: TablesSettings,
  tables: number,
  wire: WireProfile,
  socketUrl: string,
  serverPid: number | undefined,
  shaper: EgressShaper | undefined,
): Promise<CellRun> {
  const label = s.ladder || s.wires.length > 1 ? `${tables}-${wire}` : 'window';
  run.setTag('rung', tables);
  run.setTag('wire', wire);
  const shards = Math.min(s.shards, tables);
  const rampSeconds = s.rampSeconds ?? defaultRampSeconds(tables);
  const now = epochMs();
  const windowStart = Math.ceil(now + rampSeconds * 1000);
  const windowEnd = windowStart + s.seconds * 1000;
  log(
    `${tables} tables, ${wire}: ${shards} shard(s) open them over ${rampSeconds} s; the window is ${new Date(windowStart).toISOString().slice(11, 19)} to ${new Date(windowEnd).toISOString().slice(11, 19)}`,
  );

  const results: ShardResult[] = [];
  const shardErrors: string[] = [];
  const children: ChildProcess[] = [];
  const done: Promise<void>[] = [];
  let resultsIn!: () => void;
  const allResults = new Promise<void>((r) => (resultsIn = r));
  const per = Math.floor(tables / shards);
  let first = 0;
  for (let k = 0; k < shards; k++) {
    const count = per + (k < tables % shards ? 1 : 0);
    const child = fork(process.argv[1], [SHARD_ARG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    children.push(child);
    let finished = false;
    done.push(
      new Promise<void>((resolve) => {
        child.on('message', (m: ShardMessage) => {
          if (m.kind === 'records') for (const r of m.records) run.record(r);
          else if (m.kind === 'result') {
            results.push(m.result);
            if (results.length + shardErrors.length === shards) resultsIn();
          } else if (m.kind === 'fatal') shardErrors.push(`shard ${k}: ${m.error}`);
          else if (m.kind === 'done') finished = true;
        });
        child.once('exit', (code) => {
          if (!finished && !results.some((r) => r.shard === k)) {
            shardErrors.push(`shard ${k} exited (${code}) before reporting`);
            if (results.length + shardErrors.length >= shards) resultsIn();
          }
          resolve();
        });
      }),
    );
    const config: ShardConfig = {
      shard: k,
      baseUrl: run.baseUrl,
      socketUrl,
      wire,
      tables: count,
      firstTable: first,
      table: s.table,
      pause: s.pause,
      seed: s.seed,
      commandTimeoutMs: s.commandTimeoutMs,
      openUntil: now + rampSeconds * 600,
      windowStart,
      windowEnd,
    };
    first += count;
    child.send({ kind: 'start', config } satisfies CoordinatorMessage);
  }
  const teardown = () => children.forEach((c) => c.connected && c.send({ kind: 'teardown' } satisfies CoordinatorMessage));
  const onAbort = () => teardown();
  run.signal.addEventListener('abort', onAbort, { once: true });

  // Measure the window as the coordinator sees it: /metrics (which also resets the server's
  // event-loop histogram), the server's CPU, and the shaper's counters.
  await sleep(Math.max(0, windowStart - epochMs()), run.signal);
  const meter = run.usageMeter();
  const before = await run.snapshot(`${label}-before`).catch(() => undefined);
  const cpu0 = serverPid ? cpuSeconds(serverPid) : undefined;
  const shaperBefore = shaper?.stats();
  meter.start();
  await sleep(Math.max(0, windowEnd - epochMs()), run.signal);
  const after = await run.snapshot(`${label}-after`).catch(() => undefined);
  const cpu1 = serverPid ? cpuSeconds(serverPid) : undefined;
  const shaperAfter = shaper?.stats();
  const usage = meter.stop();
  const interrupted = run.signal.aborted;

  // Every shard reports once the replies of its window are in (or have timed out).
  await Promise.race([allResults, sleep(s.commandTimeoutMs + 30_000)]);
  log(`${tables} tables, ${wire}: window over; closing the tables`);
  teardown();
  const exited = Promise.all(done);
  if (!(await Promise.race([exited.then(() => true), sleep(60_000).then(() => false)]))) {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    shardErrors.push('a shard did not finish its teardown within 60 s and was killed');
  }
  run.signal.removeEventListener('abort', onAbort);
  return {
    tables,
    wire,
    shards,
    rampSeconds,
    windowStart,
    windowEnd,
    figures: BenchRun.delta(before, after),
    after,
    serverCpuSeconds: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined,
    usage,
    shaper: shaperBefore && shaperAfter ? { before: shaperBefore, after: shaperAfter } : undefined,
    results: results.sort((a, b) => a.shard - b.shard),
    shardErrors,
    interrupted,
  };
}

export type { Distances };
