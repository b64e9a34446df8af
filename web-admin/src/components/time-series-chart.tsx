import { Area, CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts'
import { formatClock, formatClockMinutes } from '../lib/format'
import { niceTicks, timeTicks } from './chart-scale'

export interface Series<T> {
  readonly key: string
  readonly label: string
  readonly color: string
  readonly value: (sample: T) => number | null | undefined
  readonly kind?: 'line' | 'area'
}

export interface TimeSeriesChartProps<T extends { readonly t: number }> {
  readonly samples: readonly T[]
  readonly series: readonly Series<T>[]
  readonly windowMs: number
  readonly formatValue: (value: number) => string
  /** For axis ticks, when `formatValue` is too long for them. */
  readonly formatTick?: (value: number) => string
  readonly height?: number
  /** A horizontal line such as a limit. */
  readonly reference?: { readonly value: number; readonly label: string }
  /** The y axis never shrinks below this, so an idle chart does not magnify noise. */
  readonly minYMax?: number
  /** The values are counts, not measurements, so the ticks are whole numbers. */
  readonly integer?: boolean
}

/**
 * A live chart of the last `windowMs`, whose right edge is the newest sample. It grows from the
 * first sample until the window is full, then scrolls. It has no animation, since a new point
 * every second would keep it moving.
 */
export function TimeSeriesChart<T extends { readonly t: number }>({
  samples,
  series,
  windowMs,
  formatValue,
  formatTick = formatValue,
  height = 180,
  reference,
  minYMax = 1,
  integer = false,
}: TimeSeriesChartProps<T>) {
  const end = samples.at(-1)?.t ?? 0
  // The chart is at least half a minute wide, so the first few samples do not stretch across it.
  const start = Math.min(Math.max(samples[0]?.t ?? 0, end - windowMs), end - 30_000)
  const data = samples as T[]
  let dataMax = 0
  for (const sample of samples) for (const s of series) dataMax = Math.max(dataMax, s.value(sample) ?? 0)
  const xTicks = timeTicks(start, end)
  const yTicks = niceTicks(Math.max(minYMax, reference?.value ?? 0, dataMax), integer)
  return (
    <ComposedChart responsive data={data} style={{ width: '100%', height }} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
      <CartesianGrid stroke="var(--grid)" vertical={false} />
      <XAxis
        dataKey="t"
        type="number"
        scale="time"
        domain={[start, end]}
        ticks={xTicks}
        allowDataOverflow
        tickFormatter={xTicks.length > 1 && xTicks[1] - xTicks[0] >= 60_000 ? formatClockMinutes : formatClock}
        tick={{ fill: 'var(--muted)', fontSize: 11 }}
        stroke="var(--border)"
      />
      <YAxis
        width={52}
        domain={[0, yTicks.at(-1)!]}
        ticks={yTicks}
        interval={0}
        tickFormatter={formatTick}
        tick={{ fill: 'var(--muted)', fontSize: 11 }}
        stroke="var(--border)"
      />
      <Tooltip
        isAnimationActive={false}
        labelFormatter={(t) => formatClock(Number(t))}
        formatter={(value) => (typeof value === 'number' ? formatValue(value) : String(value))}
        contentStyle={{ background: 'var(--panel-raised)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
        labelStyle={{ color: 'var(--muted)' }}
      />
      <Legend verticalAlign="top" align="right" height={22} iconType="plainline" wrapperStyle={{ fontSize: 11, color: 'var(--muted)' }} />
      {reference && (
        <ReferenceLine
          y={reference.value}
          stroke="var(--bad)"
          strokeDasharray="4 4"
          label={{ value: reference.label, position: 'insideTopLeft', fill: 'var(--bad)', fontSize: 11 }}
        />
      )}
      {series.map((s) =>
        s.kind === 'area' ? (
          <Area
            key={s.key}
            name={s.label}
            dataKey={(sample: T) => s.value(sample) ?? null}
            stroke={s.color}
            fill={s.color}
            fillOpacity={0.18}
            strokeWidth={1.5}
            isAnimationActive={false}
            dot={false}
            activeDot={{ r: 3 }}
            type="monotone"
          />
        ) : (
          <Line
            key={s.key}
            name={s.label}
            dataKey={(sample: T) => s.value(sample) ?? null}
            stroke={s.color}
            strokeWidth={1.5}
            isAnimationActive={false}
            dot={false}
            activeDot={{ r: 3 }}
            type="monotone"
          />
        ),
      )}
    </ComposedChart>
  )
}
