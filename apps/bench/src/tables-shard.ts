import { setMaxListeners } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { CardTableReport, CardTableSettings, CommandRecord, epochMs, HumanPause, playCardTable, sleep } from '@app/bot-kit';
import { WireProfile } from '@app/protocol';
import { seededRandom } from './seeded-random';

/**
 * One shard of a `tables` run. A shard is a child process of the bench that plays its share of the
 * tables, so that the bench's own CPU is not the limit: each shard has its own event loop and heap,
 * on whichever core is free. Every shard opens the same steady window at the same instant (epoch
 * ms, given by the coordinator), and counts only what happens inside that window.
 */
export const SHARD_ARG = '__tables_shard';

export interface ShardConfig {
  readonly shard: number;
  readonly baseUrl: string;
  /** Where sockets connect: to the server, or to the egress shaper in front of it. */
  readonly socketUrl: string;
  readonly wire: WireProfile;
  readonly tables: number;
  /** The number of this shard's first table in the whole run. Seeds differ per table. */
  readonly firstTable: number;
  readonly table: CardTableSettings;
  readonly pause: HumanPause;
  readonly seed: number;
  readonly commandTimeoutMs: number;
  /** Tables are opened evenly from now until this instant (epoch ms). */
  readonly openUntil: number;
  readonly windowStart: number;
  readonly windowEnd: number;
}

export interface KindCount {
  frames: number;
  bytes: number;
}

/** What one shard measured over the window. */
export interface ShardResult {
  readonly shard: number;
  readonly tables: number;
  readonly tablesOpened: number;
  /** Tables whose socket was open, with its first snapshot, when the window opened. */
  readonly seatedAtWindowStart: number;
  /** Tables whose socket was still open when the window closed. */
  readonly seatedAtWindowEnd: number;
  /** Frames received in the window, by decoded kind, with the UTF-8 bytes of the payload as the wire carried it. */
  readonly byKind: Record<string, KindCount>;
  readonly handsFinished: number;
  /** The close codes the server sent, by code, counted in the window and over the whole run. */
  readonly closes: Record<string, { inWindow: number; total: number }>;
  readonly grantedWire: Record<string, number>;
  /** CPU seconds of this process over the window, and the window's length as this process saw it. */
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
  /** Event-loop delay over the window, in ms beyond the monitor's resolution. */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Commands sent in the window that still had no outcome when the shard reported. This should be 0. */
  readonly unresolved: number;
  readonly failures: number;
  /** A few distinct failure messages (bounded). */
  readonly failureSamples: readonly string[];
}

export type ShardMessage =
  | { kind: 'records'; records: CommandRecord[] }
  | { kind: 'result'; result: ShardResult }
  | { kind: 'done' }
  | { kind: 'fatal'; error: string };

export type CoordinatorMessage = { kind: 'start'; config: ShardConfig } | { kind: 'teardown' };

const LOOP_RESOLUTION_MS = 10;
const MAX_FAILURE_SAMPLES = 5;

/**
 * Runs the shard's whole life. It waits for its config, plays, reports the window, tears down when
 * told to, and exits.
 */
export async function runShard(): Promise<void> {
  const send = (m: ShardMessage) => process.send?.(m);
  const config = await new Promise<ShardConfig>((resolve) =>
    process.on('message', (m: CoordinatorMessage) => {
      if (m.kind === 'start') resolve(m.config);
    }),
  );
  const teardown = new Promise<void>((resolve) => {
    process.on('message', (m: CoordinatorMessage) => m.kind === 'teardown' && resolve());
    // When the coordinator goes away, the shard stops too.
    process.on('disconnect', () => resolve());
  });
  try {
    await playShard(config, send, teardown);
    send({ kind: 'done' });
  } catch (err) {
    send({ kind: 'fatal', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
}

async function playShard(c: ShardConfig, send: (m: ShardMessage) => void, teardown: Promise<void>): Promise<void> {
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  void teardown.then(() => stop.abort());
  const inWindow = (t: number) => t >= c.windowStart && t < c.windowEnd;

  // Records go to the coordinator in batches, so a busy shard sends few messages.
  let batch: CommandRecord[] = [];
  const flush = () => {
    if (batch.length) send({ kind: 'records', records: batch });
    batch = [];
  };
  const flusher = setInterval(flush, 250);
  let unresolved = 0;
  const record = (r: CommandRecord) => {
    // A command that was never sent (because its socket had closed) was never counted as sent either.
    const sent = !(typeof r.error === 'string' && r.error.startsWith('socket not open'));
    if (r.type !== 'ws.connect' && !r.type.startsWith('http') && r.type !== 'cleanup' && sent && inWindow(r.sentAt)) unresolved--;
    batch.push({ ...r, sentAt: Math.round(r.sentAt * 1000) / 1000, ms: Math.round(r.ms * 1000) / 1000 });
  };

  const byKind: Record<string, KindCount> = {};
  let hands = 0;
  const closes: Record<string, { inWindow: number; total: number }> = {};
  const granted: Record<string, number> = {};
  let seated = 0;
  let opened = 0;
  let failures = 0;
  const samples = new Set<string>();

  const play = (k: number): Promise<CardTableReport> => {
    const n = c.firstTable + k;
    let isSeated = false;
    return playCardTable({
      baseUrl: c.baseUrl,
      socketUrl: c.socketUrl,
      wire: c.wire,
      table: { ...c.table, seed: c.seed * 100_003 + n },
      pause: c.pause,
      random: seededRandom(c.seed * 7919 + n),
      commandTimeoutMs: c.commandTimeoutMs,
      record,
      tags: { shard: c.shard, wire: c.wire },
      signal: stop.signal,
      onFrame: (kind, bytes) => {
        if (!inWindow(epochMs())) return;
        const k = (byKind[kind] ??= { frames: 0, bytes: 0 });
        k.frames++;
        k.bytes += bytes;
      },
      onHandFinished: () => inWindow(epochMs()) && hands++,
      // A close is counted when it arrives, not when the table's cleanup is over.
      onClosed: (code) => {
        const entry = (closes[String(code)] ??= { inWindow: 0, total: 0 });
        entry.total++;
        if (inWindow(epochMs())) entry.inWindow++;
      },
      onCommandSent: (_type, sentAt) => inWindow(sentAt) && unresolved++,
      onSeated: (wire) => {
        isSeated = true;
        seated++;
        if (wire) granted[wire] = (granted[wire] ?? 0) + 1;
      },
    }).then((report) => {
      if (isSeated) seated--;
      if (report.error && !report.aborted) {
        failures++;
        if (samples.size < MAX_FAILURE_SAMPLES) samples.add(report.error);
      }
      return report;
    });
  };

  // Open the tables evenly over the ramp's opening part.
  const tables: Promise<CardTableReport>[] = [];
  const openStart = epochMs();
  const spacing = c.tables > 1 ? Math.max(0, c.openUntil - openStart) / c.tables : 0;
  const opening = (async () => {
    for (let k = 0; k < c.tables && !stop.signal.aborted; k++) {
      const due = openStart + k * spacing;
      if (due > epochMs()) await sleep(due - epochMs(), stop.signal);
      tables.push(play(k));
      opened++;
    }
  })();

  // Measure the window in this process: CPU, event-loop delay, and who is seated.
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  await sleep(Math.max(0, c.windowStart - epochMs()), stop.signal);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  const seatedAtStart = seated;
  loop.enable();
  await sleep(Math.max(0, c.windowEnd - epochMs()), stop.signal);
  loop.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const seatedAtEnd = seated;
  // Replies to commands sent in the window are part of the window, so wait for them. Each one
  // resolves by its timeout at the latest.
  const waitUntil = performance.now() + c.commandTimeoutMs + 1000;
  while (unresolved > 0 && performance.now() < waitUntil && !stop.signal.aborted) await sleep(20, stop.signal);
  const ms = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  flush();
  send({
    kind: 'result',
    result: {
      shard: c.shard,
      tables: c.tables,
      tablesOpened: opened,
      seatedAtWindowStart: seatedAtStart,
      seatedAtWindowEnd: seatedAtEnd,
      byKind,
      handsFinished: hands,
      closes,
      grantedWire: granted,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      wallSeconds,
      loopDelay: loop.count
        ? { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) }
        : { p50: 0, p99: 0, max: 0 },
      unresolved: Math.max(0, unresolved),
      failures,
      failureSamples: [...samples],
    },
  });

  await teardown;
  stop.abort();
  await opening;
  await Promise.all(tables);
  clearInterval(flusher);
  flush();
}
