import { MetricsSnapshot, Sample } from '@app/bot-kit';

/** p95 and p99 are left empty at or below this many samples, because there is no tail to speak of. */
export const MAX_N_WITHOUT_TAIL = 11;

/**
 * Returns the p-quantile (p in [0, 1]) of the ascending `sorted`, by linear interpolation between
 * ranks: rank r = p (n - 1), value = x[floor r] + (r - floor r) (x[ceil r] - x[floor r]).
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of no samples');
  if (!(p >= 0 && p <= 1)) throw new Error(`percentile p must be in [0, 1], got ${p}`);
  const r = p * (sorted.length - 1);
  const lo = Math.floor(r);
  const hi = Math.ceil(r);
  const a = sorted[lo];
  const b = sorted[hi];
  // Equal neighbours (including two timeouts counted as +Infinity) need no interpolation.
  if (a === b || lo === hi) return a;
  return a + (r - lo) * (b - a);
}

export interface Summary {
  readonly n: number;
  readonly p50?: number;
  /** Undefined when n <= 11. */
  readonly p95?: number;
  readonly p99?: number;
  readonly mean?: number;
  readonly min?: number;
  readonly max?: number;
}

/**
 * Summarizes latencies on the client side. Values may include +Infinity, for a command that never
 * got its reply. +Infinity sorts last, so a percentile that lands on one reads as "beyond the
 * timeout". The mean is over finite values only.
 */
export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  if (n === 0) return { n };
  const sorted = [...values].sort((a, b) => a - b);
  const finite = sorted.filter(Number.isFinite);
  return {
    n,
    p50: percentile(sorted, 0.5),
    ...(n > MAX_N_WITHOUT_TAIL ? { p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99) } : {}),
    ...(finite.length ? { mean: finite.reduce((s, v) => s + v, 0) / finite.length, min: finite[0], max: finite[finite.length - 1] } : {}),
  };
}

/** Server-side figures are refused when the server restarted between the two snapshots. */
export class ServerRestartedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerRestartedError';
  }
}

export const PROCESS_START = 'process_start_time_seconds';

function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  return (
    name +
    JSON.stringify(
      Object.keys(labels)
        .sort()
        .map((k) => [k, labels[k]]),
    )
  );
}

/** One histogram label set over an interval: Δcount, Δsum, the exact mean, and Δ per bucket. */
export interface HistogramDelta {
  readonly labels: Readonly<Record<string, string>>;
  readonly count: number;
  readonly sumSeconds: number;
  /** Δsum / Δcount, in ms. It is undefined when nothing was observed. */
  readonly meanMs?: number;
  /** Observations per bucket (not cumulative), by upper bound in ms. Only non-empty buckets are listed. */
  readonly buckets: readonly { readonly leMs: number; readonly count: number }[];
}

/**
 * The difference between two /metrics snapshots, sample by sample. Histograms' `_sum` and `_count`
 * give exact means. Quantiles estimated from buckets are never reported as figures.
 */
export class MetricsDelta {
  private readonly byKey = new Map<string, Sample>();

  constructor(readonly samples: readonly Sample[]) {
    for (const s of samples) this.byKey.set(seriesKey(s.name, s.labels), s);
  }

  /**
   * Computes after - before. It is refused (ServerRestartedError) when `process_start_time_seconds`
   * is missing or changed, or when a counter went down, because then the process or its registry
   * was reset.
   */
  static between(before: MetricsSnapshot, after: MetricsSnapshot): MetricsDelta {
    const startBefore = before.samples.find((s) => s.name === PROCESS_START)?.value;
    const startAfter = after.samples.find((s) => s.name === PROCESS_START)?.value;
    if (startBefore === undefined || startAfter === undefined) {
      throw new ServerRestartedError(`${PROCESS_START} is missing from a snapshot: cannot tell whether the server restarted`);
    }
    if (startBefore !== startAfter) {
      throw new ServerRestartedError(`the server restarted between the snapshots (${PROCESS_START} ${startBefore} -> ${startAfter})`);
    }
    const previous = new Map<string, number>();
    for (const s of before.samples) previous.set(seriesKey(s.name, s.labels), s.value);
    const deltas: Sample[] = [];
    for (const s of after.samples) {
      const type = familyType(after, s.name);
      if (type !== 'counter' && type !== 'histogram') continue;
      const was = previous.get(seriesKey(s.name, s.labels)) ?? 0;
      const delta = s.value - was;
      // A histogram's _sum may go down, but only through float error. Counts and counters never go
      // down.
      if (delta < 0 && !(s.name.endsWith('_sum') && delta > -1e-9)) {
        throw new ServerRestartedError(`${s.name}${JSON.stringify(s.labels)} went down (${was} -> ${s.value}): the metrics were reset`);
      }
      deltas.push({ name: s.name, labels: s.labels, value: delta });
    }
    return new MetricsDelta(deltas);
  }

  /** Adds intervals together, such as the A/B blocks of one arm, each measured on its own server. */
  static sum(deltas: readonly MetricsDelta[]): MetricsDelta {
    const total = new Map<string, Sample>();
    for (const d of deltas) {
      for (const s of d.samples) {
        const key = seriesKey(s.name, s.labels);
        const had = total.get(key);
        total.set(key, { name: s.name, labels: s.labels, value: (had?.value ?? 0) + s.value });
      }
    }
    return new MetricsDelta([...total.values()]);
  }

  /** The sum of the deltas of `name` whose labels include `labels`. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  }

  /** A counter's non-zero deltas, grouped by one label (for example, statement). */
  counterBy(name: string, label: string): { key: string; value: number }[] {
    const out = new Map<string, number>();
    for (const s of this.samples) if (s.name === name) out.set(s.labels[label] ?? '', (out.get(s.labels[label] ?? '') ?? 0) + s.value);
    return [...out.entries()].filter(([, v]) => v !== 0).map(([key, value]) => ({ key, value }));
  }

  /**
   * A histogram family per label set (without `le`), for sets with Δcount > 0. With `keep`, the sets
   * are merged over the labels not in it.
   */
  histograms(family: string, keep?: readonly string[]): HistogramDelta[] {
    const project = (labels: Readonly<Record<string, string>>) => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(labels)) if (k !== 'le' && (!keep || keep.includes(k))) out[k] = v;
      return out;
    };
    const groups = new Map<string, { labels: Record<string, string>; count: number; sum: number; cumulative: Map<number, number> }>();
    const group = (labels: Readonly<Record<string, string>>) => {
      const l = project(labels);
      const key = seriesKey(family, l);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { labels: l, count: 0, sum: 0, cumulative: new Map() }));
      return g;
    };
    for (const s of this.samples) {
      if (s.name === `${family}_count`) group(s.labels).count += s.value;
      else if (s.name === `${family}_sum`) group(s.labels).sum += s.value;
      else if (s.name === `${family}_bucket`) {
        const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
        const g = group(s.labels);
        g.cumulative.set(le, (g.cumulative.get(le) ?? 0) + s.value);
      }
    }
    return [...groups.values()]
      .filter((g) => g.count > 0)
      .map((g) => {
        const bounds = [...g.cumulative.keys()].sort((a, b) => a - b);
        const buckets: { leMs: number; count: number }[] = [];
        let below = 0;
        for (const le of bounds) {
          const cum = g.cumulative.get(le)!;
          const inBucket = Math.round(cum - below);
          if (inBucket > 0) buckets.push({ leMs: le * 1000, count: inBucket });
          below = cum;
        }
        return { labels: g.labels, count: g.count, sumSeconds: g.sum, meanMs: (g.sum / g.count) * 1000, buckets };
      });
  }
}

function familyType(snapshot: MetricsSnapshot, sampleName: string): string | undefined {
  return (
    snapshot.types.get(sampleName) ??
    snapshot.types.get(sampleName.replace(/_(bucket|sum|count)$/, '')) ??
    snapshot.types.get(sampleName.replace(/_total$/, ''))
  );
}

/** The mean of finite numbers, or undefined when there are none. */
export function mean(values: readonly number[]): number | undefined {
  const finite = values.filter(Number.isFinite);
  return finite.length ? finite.reduce((s, v) => s + v, 0) / finite.length : undefined;
}
