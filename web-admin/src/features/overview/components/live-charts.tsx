import { Panel } from '../../../components/panel'
import { TimeSeriesChart, type Series } from '../../../components/time-series-chart'
import { formatMs, formatMsAxis, formatRate } from '../../../lib/format'
import { LATENCY_SPAN, SAMPLE_WINDOW_MS, type LiveSample } from '../../../lib/live-samples'

const COLORS = ['var(--series-1)', 'var(--series-2)', 'var(--series-3)', 'var(--series-4)', 'var(--series-5)']

const MAILBOX: Series<LiveSample>[] = [
  { key: 'total', label: 'queued, all rooms', color: COLORS[0], value: (s) => s.mailboxTotal, kind: 'area' },
  { key: 'deepest', label: 'deepest room', color: COLORS[3], value: (s) => s.mailboxDeepest },
]

const POOL: Series<LiveSample>[] = [
  { key: 'inUse', label: 'in use', color: COLORS[0], value: (s) => s.poolInUse, kind: 'area' },
  { key: 'waiting', label: 'waiting', color: 'var(--bad)', value: (s) => s.poolWaiting },
]

const RATE: Series<LiveSample>[] = [{ key: 'rate', label: 'commands/s', color: COLORS[2], value: (s) => s.commandsPerSecond, kind: 'area' }]

/** Charts the latency per command type for the busiest few types, the mean of all, and the pool's acquire wait. */
function latencySeries(samples: readonly LiveSample[]): Series<LiveSample>[] {
  const seen = new Map<string, number>()
  for (const s of samples) for (const name of Object.keys(s.latencyMs)) seen.set(name, (seen.get(name) ?? 0) + 1)
  const busiest = [...seen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name]) => name)
    .sort()
  return [
    { key: 'all', label: 'all commands', color: 'var(--text-dim)', value: (s) => s.latencyAllMs },
    ...busiest.map((name, i) => ({
      key: name,
      label: name,
      color: COLORS[(i + 1) % COLORS.length],
      value: (s: LiveSample) => s.latencyMs[name],
    })),
    { key: 'acquire', label: 'pool acquire', color: 'var(--bad)', value: (s) => s.acquireMs },
  ]
}

const integer = (v: number) => String(Math.round(v))

/** Charts the last few minutes, from the samples the stream has brought while this tab was open. */
export function LiveCharts({ samples }: { readonly samples: readonly LiveSample[] }) {
  const poolMax = samples.at(-1)?.poolMax
  const minutes = SAMPLE_WINDOW_MS / 60_000
  const aside = <span className="muted">last {minutes} min</span>
  return (
    <div className="chart-grid">
      <Panel title="Mailbox depth" aside={aside}>
        <TimeSeriesChart samples={samples} series={MAILBOX} windowMs={SAMPLE_WINDOW_MS} formatValue={integer} minYMax={4} integer />
      </Panel>
      <Panel
        title="Command latency"
        aside={
          <span className="muted">
            mean over {LATENCY_SPAN} s · last {minutes} min
          </span>
        }
      >
        <TimeSeriesChart
          samples={samples}
          series={latencySeries(samples)}
          windowMs={SAMPLE_WINDOW_MS}
          formatValue={formatMs}
          formatTick={formatMsAxis}
          minYMax={2}
        />
      </Panel>
      <Panel title="Pool in use" aside={aside}>
        <TimeSeriesChart
          samples={samples}
          series={POOL}
          windowMs={SAMPLE_WINDOW_MS}
          formatValue={integer}
          integer
          reference={poolMax !== undefined ? { value: poolMax, label: `max ${poolMax}` } : undefined}
        />
      </Panel>
      <Panel title="Throughput" aside={aside}>
        <TimeSeriesChart
          samples={samples}
          series={RATE}
          windowMs={SAMPLE_WINDOW_MS}
          formatValue={formatRate}
          formatTick={(v) => String(+v.toPrecision(3))}
          minYMax={5}
        />
      </Panel>
    </div>
  )
}
