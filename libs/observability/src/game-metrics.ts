import { Injectable } from '@nestjs/common';
import { InjectMetric, makeCounterProvider, makeGaugeProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import { Counter, Gauge, Histogram } from 'prom-client';
import { CommandTally } from './command-tally';
import { commandLabel, EMPTY_VOCABULARY, frameKindLabel, LabelVocabulary } from './label-vocabulary';
import {
  IMAGE_UPLOAD_OUTCOMES,
  ImageUploadOutcome,
  LATENCY_BUCKETS,
  LimitName,
  LIMITS,
  MetricName,
  RefusalDrop,
  REFUSAL_DROPS,
  RETENTION_TABLES,
  RetentionTableName,
  SETTLED_OUTCOMES,
} from './metric-names';

export interface PoolReading {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** Where the gauges read their values at scrape time. */
export interface LiveSources {
  rooms(): number;
  pool(): PoolReading;
}

type Role = 'host' | 'player' | 'spectator';

/** The providers that register every family with the Prometheus module. */
export const METRIC_PROVIDERS = [
  makeHistogramProvider({
    name: MetricName.commandDuration,
    help: 'Time from a command frame arriving to its reply being sent',
    labelNames: ['command', 'status_class'],
    buckets: [...LATENCY_BUCKETS],
  }),
  makeHistogramProvider({
    name: MetricName.mailboxWait,
    help: 'Time a command waited in its room mailbox before its batch started',
    labelNames: ['command'],
    buckets: [...LATENCY_BUCKETS],
  }),
  makeHistogramProvider({
    name: MetricName.statementDuration,
    help: 'Named SQL statement time, pool checkout included',
    labelNames: ['statement'],
    buckets: [...LATENCY_BUCKETS],
  }),
  makeCounterProvider({
    name: MetricName.roundTrips,
    help: 'Round trips to PostgreSQL, by the named statement that made them',
    labelNames: ['statement'],
  }),
  makeHistogramProvider({
    name: MetricName.poolAcquire,
    help: 'Time to check a connection out of the pool',
    buckets: [...LATENCY_BUCKETS],
  }),
  makeGaugeProvider({ name: MetricName.poolConnections, help: 'Pool connections by state', labelNames: ['state'] }),
  makeGaugeProvider({ name: MetricName.poolMax, help: 'Pool size limit' }),
  makeGaugeProvider({ name: MetricName.roomsActive, help: 'Rooms live in this process' }),
  makeGaugeProvider({ name: MetricName.socketsOpen, help: 'Open game sockets by role', labelNames: ['role'] }),
  makeCounterProvider({ name: MetricName.outboundBytes, help: 'Bytes sent on game sockets', labelNames: ['kind', 'wire'] }),
  makeCounterProvider({ name: MetricName.outboundFrames, help: 'Frames sent on game sockets', labelNames: ['kind', 'wire'] }),
  makeCounterProvider({ name: MetricName.evictions, help: 'Sockets closed because they could not keep up', labelNames: ['reason'] }),
  makeGaugeProvider({
    name: MetricName.sendQueueBytes,
    help: 'Bytes sent on game sockets that their clients have not read yet (acknowledged by pong)',
  }),
  makeGaugeProvider({ name: MetricName.sendQueueFrames, help: 'Frames sent on game sockets that their clients have not read yet' }),
  makeGaugeProvider({ name: MetricName.buildInfo, help: 'Always 1; the labels name the build', labelNames: ['version', 'sha'] }),
  makeCounterProvider({
    name: MetricName.limitRefusals,
    help: 'Requests and sockets refused (or, for seat_sockets, closed) by a limit',
    labelNames: ['limit'],
  }),
  makeCounterProvider({ name: MetricName.refusalsRecorded, help: 'Refused commands written to refused_commands for the console' }),
  makeCounterProvider({
    name: MetricName.refusalsDropped,
    help: 'Refused commands not recorded for the console, by why',
    labelNames: ['reason'],
  }),
  makeCounterProvider({
    name: MetricName.outcomesSettled,
    help: "Rooms' statements whose answer was lost, settled by reading the database, by what they turned out to be",
    labelNames: ['outcome'],
  }),
  makeCounterProvider({ name: MetricName.silentCloses, help: 'Sockets closed (4011) because they answered no ping within the window' }),
  makeCounterProvider({
    name: MetricName.roomFaults,
    help: 'Exceptions caught while a room settled or published a committed step; each lets its room go',
  }),
  makeCounterProvider({
    name: MetricName.unhandledRejections,
    help: 'Promise rejections nothing handled, logged and survived by the process',
  }),
  makeCounterProvider({
    name: MetricName.retentionRemoved,
    help: 'Rows removed by the retention pruning, by table (room_decks: deck copies cleared)',
    labelNames: ['table'],
  }),
  makeCounterProvider({ name: MetricName.retentionFailures, help: 'Retention pruning batches that failed (the next sweep tries again)' }),
  makeCounterProvider({
    name: MetricName.imageUploads,
    help: 'Images uploaded to decks, by whether they were stored or why not',
    labelNames: ['outcome'],
  }),
  makeCounterProvider({ name: MetricName.imageStoredBytes, help: 'Bytes of the images stored, as re-encoded' }),
];

/**
 * Every measurement the server makes, recorded once and read three ways: as Prometheus families,
 * as the admin overview's exact means, and as socket counts. It implements the observer
 * interfaces of the rooms, the gateway and the persistence layer. Label values come from the
 * vocabulary given to `bind`, and anything else is labelled `unknown`.
 */
@Injectable()
export class GameMetrics {
  private vocabulary: LabelVocabulary = EMPTY_VOCABULARY;
  readonly tally = new CommandTally((command) => this.vocabulary.commands.has(command));
  private readonly sockets: Record<Role, number> = { host: 0, player: 0, spectator: 0 };
  private readonly acquire = { count: 0, sumSeconds: 0 };
  // Per-frame figures are summed here and handed to prom-client when it is read. prom-client's
  // inc() hashes the labels on every call, which cost more than the frame's own bookkeeping at ~7
  // frames per answer. The keys are label values (the vocabulary's event types, `reply`,
  // `unknown`) and wire profiles.
  private readonly framesUnread = new Map<string, { kind: string; wire: string; bytes: number; frames: number }>();
  private readonly queue = { bytes: 0, frames: 0 };
  private sources?: LiveSources;

  constructor(
    @InjectMetric(MetricName.commandDuration) private readonly commandDuration: Histogram<string>,
    @InjectMetric(MetricName.mailboxWait) private readonly mailboxWait: Histogram<string>,
    @InjectMetric(MetricName.statementDuration) private readonly statementDuration: Histogram<string>,
    @InjectMetric(MetricName.roundTrips) private readonly roundTrips: Counter<string>,
    @InjectMetric(MetricName.poolAcquire) private readonly poolAcquire: Histogram<string>,
    @InjectMetric(MetricName.poolConnections) poolConnections: Gauge<string>,
    @InjectMetric(MetricName.poolMax) poolMax: Gauge<string>,
    @InjectMetric(MetricName.roomsActive) roomsActive: Gauge<string>,
    @InjectMetric(MetricName.socketsOpen) socketsOpen: Gauge<string>,
    @InjectMetric(MetricName.outboundBytes) private readonly outboundBytes: Counter<string>,
    @InjectMetric(MetricName.outboundFrames) private readonly outboundFrames: Counter<string>,
    @InjectMetric(MetricName.evictions) private readonly evictionsTotal: Counter<string>,
    @InjectMetric(MetricName.sendQueueBytes) private readonly sendQueueBytes: Gauge<string>,
    @InjectMetric(MetricName.sendQueueFrames) private readonly sendQueueFrames: Gauge<string>,
    @InjectMetric(MetricName.buildInfo) private readonly buildInfo: Gauge<string>,
    @InjectMetric(MetricName.limitRefusals) private readonly limitRefusals: Counter<string>,
    @InjectMetric(MetricName.refusalsRecorded) private readonly refusalsRecorded: Counter<string>,
    @InjectMetric(MetricName.refusalsDropped) private readonly refusalsDropped: Counter<string>,
    @InjectMetric(MetricName.outcomesSettled) private readonly outcomesSettled: Counter<string>,
    @InjectMetric(MetricName.silentCloses) private readonly silentCloses: Counter<string>,
    @InjectMetric(MetricName.roomFaults) private readonly roomFaults: Counter<string>,
    @InjectMetric(MetricName.unhandledRejections) private readonly unhandledRejections: Counter<string>,
    @InjectMetric(MetricName.retentionRemoved) private readonly retentionRemoved: Counter<string>,
    @InjectMetric(MetricName.retentionFailures) private readonly retentionFailures: Counter<string>,
    @InjectMetric(MetricName.imageUploads) private readonly imageUploads: Counter<string>,
    @InjectMetric(MetricName.imageStoredBytes) private readonly imageStoredBytes: Counter<string>,
  ) {
    refusalsRecorded.inc(0);
    for (const outcome of SETTLED_OUTCOMES) outcomesSettled.inc({ outcome }, 0);
    // Faults and silent sockets show from the start, at 0, like the limits below.
    for (const counter of [silentCloses, roomFaults, unhandledRejections, retentionFailures]) counter.inc(0);
    for (const table of RETENTION_TABLES) retentionRemoved.inc({ table }, 0);
    for (const reason of REFUSAL_DROPS) refusalsDropped.inc({ reason }, 0);
    for (const outcome of IMAGE_UPLOAD_OUTCOMES) imageUploads.inc({ outcome }, 0);
    imageStoredBytes.inc(0);
    // Every limit shows from the start, at 0: a dashboard's rate() needs the series before the first refusal.
    for (const limit of LIMITS) limitRefusals.inc({ limit }, 0);
    // Gauges read the live values when Prometheus scrapes; nothing updates them on a timer.
    (poolConnections as unknown as { collect: () => void }).collect = () => {
      const pool = this.sources?.pool();
      if (!pool) return;
      poolConnections.set({ state: 'total' }, pool.total);
      poolConnections.set({ state: 'idle' }, pool.idle);
      poolConnections.set({ state: 'waiting' }, pool.waiting);
    };
    (poolMax as unknown as { collect: () => void }).collect = () => {
      const pool = this.sources?.pool();
      if (pool) poolMax.set(pool.max);
    };
    (roomsActive as unknown as { collect: () => void }).collect = () => {
      if (this.sources) roomsActive.set(this.sources.rooms());
    };
    (socketsOpen as unknown as { collect: () => void }).collect = () => {
      for (const role of Object.keys(this.sockets) as Role[]) socketsOpen.set({ role }, this.sockets[role]);
    };
    (outboundBytes as unknown as { collect: () => void }).collect = () => this.flushFrames();
    (outboundFrames as unknown as { collect: () => void }).collect = () => this.flushFrames();
    (sendQueueBytes as unknown as { collect: () => void }).collect = () => {
      sendQueueBytes.set(this.queue.bytes);
    };
    (sendQueueFrames as unknown as { collect: () => void }).collect = () => {
      sendQueueFrames.set(this.queue.frames);
    };
  }

  bind(sources: LiveSources, build: { version: string; sha: string }, vocabulary: LabelVocabulary): void {
    this.sources = sources;
    this.vocabulary = vocabulary;
    this.buildInfo.reset();
    this.buildInfo.set({ version: build.version, sha: build.sha }, 1);
  }

  // Rooms: one handled command. `type` is what the client wrote, and the label is the server's word for it.
  command(type: string, status: number, seconds: number, mailboxWaitSeconds: number): void {
    const statusClass = status < 300 ? '2xx' : status < 500 ? '4xx' : '5xx';
    const command = commandLabel(this.vocabulary, type);
    this.commandDuration.observe({ command, status_class: statusClass }, seconds);
    this.mailboxWait.observe({ command }, mailboxWaitSeconds);
    this.tally.record(type, seconds * 1000, Date.now());
  }

  // Persistence.
  roundTrip(statement: string): void {
    this.roundTrips.inc({ statement });
  }

  settled(outcome: string): void {
    this.outcomesSettled.inc({ outcome });
  }

  statement(statement: string, seconds: number): void {
    this.statementDuration.observe({ statement }, seconds);
  }

  acquired(seconds: number): void {
    this.poolAcquire.observe(seconds);
    this.acquire.count++;
    this.acquire.sumSeconds += seconds;
  }

  // Gateway.
  // The gateway passes the event type the room chose, or `reply`, and the vocabulary makes sure of that.
  frameSent(kind: string, wire: string, bytes: number): void {
    const label = frameKindLabel(this.vocabulary, kind);
    const key = `${label}\u0000${wire}`;
    let unread = this.framesUnread.get(key);
    if (!unread) this.framesUnread.set(key, (unread = { kind: label, wire, bytes: 0, frames: 0 }));
    unread.bytes += bytes;
    unread.frames++;
  }

  private flushFrames(): void {
    for (const unread of this.framesUnread.values()) {
      if (unread.frames === 0) continue;
      const labels = { kind: unread.kind, wire: unread.wire };
      this.outboundBytes.inc(labels, unread.bytes);
      this.outboundFrames.inc(labels, unread.frames);
      unread.bytes = 0;
      unread.frames = 0;
    }
  }

  socketOpened(role: Role): void {
    this.sockets[role]++;
  }

  socketClosed(role: Role): void {
    this.sockets[role] = Math.max(0, this.sockets[role] - 1);
  }

  // The reason is one of the gateway's own (send_queue_bytes, send_queue_frames), never a client's word.
  evicted(reason: string): void {
    this.evictionsTotal.inc({ reason });
  }

  socketReplaced(): void {
    this.limitRefused('seat_sockets');
  }

  socketRefused(): void {
    this.limitRefused('instance_sockets');
  }

  socketSilent(): void {
    this.silentCloses.inc();
  }

  // Faults: a room's own code threw after a commit (and the room was let go), or a rejection nobody handled.
  roomFaulted(): void {
    this.roomFaults.inc();
  }

  unhandledRejection(): void {
    this.unhandledRejections.inc();
  }

  // Limits: the label is one of LIMITS, never a client's word.
  limitRefused(limit: LimitName): void {
    this.limitRefusals.inc({ limit });
  }

  // The console's record of refused commands: what was written, and what was not, and why.
  refusalsWritten(count: number): void {
    this.refusalsRecorded.inc(count);
  }

  refusalsLost(reason: RefusalDrop, count = 1): void {
    this.refusalsDropped.inc({ reason }, count);
  }

  // Retention: the rows a pruning batch removed, by table, and the batches that failed.
  retentionPruned(table: RetentionTableName, rows: number): void {
    if (rows > 0) this.retentionRemoved.inc({ table }, rows);
  }

  retentionFailed(): void {
    this.retentionFailures.inc();
  }

  /** An image upload's outcome, and for one stored, its bytes as re-encoded. */
  imageUploaded(outcome: ImageUploadOutcome, storedBytes = 0): void {
    this.imageUploads.inc({ outcome });
    if (storedBytes > 0) this.imageStoredBytes.inc(storedBytes);
  }

  queued(bytes: number, frames: number): void {
    this.queue.bytes += bytes;
    this.queue.frames += frames;
  }

  socketCounts(): Record<Role, number> {
    return { ...this.sockets };
  }

  acquireSummary(): { count: number; meanMs: number } {
    return { count: this.acquire.count, meanMs: this.acquire.count ? (this.acquire.sumSeconds / this.acquire.count) * 1000 : 0 };
  }
}
