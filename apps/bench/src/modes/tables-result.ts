import type { CardTableSettings, EgressShaperStats, HumanPause, MetricsSnapshot } from '@app/bot-kit';
import type { WireProfile } from '@app/protocol';
import type { UsageReading } from '../host-usage';
import type { ShardResult } from '../tables-shard';

// What a tables run is set to do and what it measured around each window: shared by the run
// (tables.ts) and its report (tables-report.ts), so that neither imports the other.

export interface TablesSettings {
  /** One rung without --ladder. */
  readonly rungs: readonly number[];
  readonly ladder: boolean;
  readonly wires: readonly WireProfile[];
  readonly seconds: number;
  /** Per rung; undefined: from the number of tables. */
  readonly rampSeconds?: number;
  readonly shards: number;
  readonly egressMbps?: number;
  readonly shaperBufferBytes: number;
  readonly kneeMs: number;
  readonly table: CardTableSettings;
  readonly pause: HumanPause;
  readonly commandTimeoutMs: number;
  readonly seed: number;
  readonly title: string;
  readonly plots: boolean;
}

/** What the coordinator measured around one cell's window (one rung, one profile). */
export interface CellRun {
  readonly tables: number;
  readonly wire: WireProfile;
  readonly shards: number;
  readonly rampSeconds: number;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly figures: { delta?: import('../stats').MetricsDelta; refused?: string };
  readonly after?: MetricsSnapshot;
  /** Server CPU seconds over the window (from /proc/<pid>/stat), when the server is on this machine. */
  readonly serverCpuSeconds?: number;
  readonly usage: UsageReading;
  readonly shaper?: { readonly before: EgressShaperStats; readonly after: EgressShaperStats };
  readonly results: ShardResult[];
  readonly shardErrors: string[];
  /** Late: the window opened before every shard had opened its tables. */
  readonly interrupted: boolean;
}
