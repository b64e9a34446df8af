import { Pie, PieChart } from 'recharts'

export interface GaugeProps {
  readonly label: string
  readonly value: number
  readonly max: number
  /** A line under the label, such as what the value means. */
  readonly caption?: string
  readonly tone?: 'normal' | 'warn' | 'bad'
}

const TONE_COLOR = { normal: 'var(--accent)', warn: 'var(--warn)', bad: 'var(--bad)' } as const

/** A half-dial of `value` against `max`, with the number written in it. */
export function Gauge({ label, value, max, caption, tone = 'normal' }: GaugeProps) {
  const filled = Math.min(Math.max(value, 0), max)
  // A pie of nothing draws nothing, so with max 0 the gauge shows the empty track.
  const data =
    max > 0
      ? [
          { name: 'value', value: filled, fill: TONE_COLOR[tone] },
          { name: 'rest', value: max - filled, fill: 'var(--track)' },
        ]
      : [{ name: 'rest', value: 1, fill: 'var(--track)' }]
  return (
    <div
      className={`gauge tone-${tone}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={`${value} of ${max}`}
    >
      <div className="gauge-dial">
        <PieChart width={132} height={72} margin={{ top: 0, right: 0, bottom: 0, left: 0 }}>
          <Pie
            data={data}
            dataKey="value"
            startAngle={180}
            endAngle={0}
            cx="50%"
            cy="100%"
            innerRadius={50}
            outerRadius={64}
            stroke="none"
            isAnimationActive={false}
          />
        </PieChart>
        <div className="gauge-reading">
          <span className="gauge-value">{value}</span>
          <span className="gauge-max">/ {max}</span>
        </div>
      </div>
      <div className="gauge-label">{label}</div>
      {caption && <div className="gauge-caption">{caption}</div>}
    </div>
  )
}
