import type { CardTableSettings, EgressShaperStats, HumanPause, MetricsSnapshot } from '@app/bot-kit';
import type { WireProfile } from '@app/protocol';
import type { UsageReading } from '../host-usage';
import type { ShardResult } from '../tables-shard';

// These types say what a tables run is set to do and what it measured around each window. The run
// (tables.ts) and its report (tables-report.ts) share them, so that neither imports the other.

export interface TablesSettings {
  /** The rungs to play. Without --ladder there is one rung. */
  readonly rungs: readonly number[];
  readonly ladder: boolean;
  readonly wires: readonly WireProfile[];
  readonly seconds: number;
  /** The ramp's length per rung. When undefined, it follows from the number of tables. */
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

/** What the coordinator measured around one cell's window (one rung with one profile). */
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
  /** True when the window opened late, before every shard had opened its tables. */
  readonly interrupted: boolean;
}
