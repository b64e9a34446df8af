import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { niceTicks } from '../../../components/chart-scale'
import { Panel } from '../../../components/panel'
import type { RoomCommand } from '../../../lib/admin-types'
import { formatClockMs, formatMs, formatMsAxis } from '../../../lib/format'

/**
 * Draws the room's last commands as bars as tall as their duration. The part spent waiting in the
 * mailbox sits under the rest. `ms` runs from arrival to reply, so it already includes the wait.
 */
export function CommandTiming({ commands }: { readonly commands: readonly RoomCommand[] }) {
  const data = commands.map((c, i) => ({
    i,
    type: c.type,
    at: c.at,
    status: c.status,
    wait: c.mailboxWaitMs,
    rest: Math.max(0, c.ms - c.mailboxWaitMs),
  }))
  const waits = commands.map((c) => c.mailboxWaitMs)
  const meanWait = waits.length ? waits.reduce((a, b) => a + b, 0) / waits.length : null
  const ticks = niceTicks(Math.max(1, ...commands.map((c) => c.ms)), false)
  return (
    <Panel
      title="Command timing"
      aside={
        <span className="muted">
          last {commands.length} · mean mailbox wait {formatMs(meanWait)}
        </span>
      }
    >
      {commands.length === 0 ? (
        <p className="empty">No commands yet.</p>
      ) : (
        <BarChart
          responsive
          data={data}
          style={{ width: '100%', height: 190 }}
          margin={{ top: 4, right: 8, bottom: 8, left: 0 }}
          barCategoryGap="12%"
        >
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="i" hide />
          <YAxis
            width={52}
            domain={[0, ticks.at(-1)!]}
            ticks={ticks}
            interval={0}
            tickFormatter={formatMsAxis}
            tick={{ fill: 'var(--muted)', fontSize: 11 }}
            stroke="var(--border)"
          />
          <Tooltip
            isAnimationActive={false}
            cursor={{ fill: 'rgba(148, 163, 184, 0.08)' }}
            labelFormatter={(_, payload) => {
              const row = payload?.[0]?.payload as (typeof data)[number] | undefined
              return row ? `${row.type} · ${row.status} · ${formatClockMs(row.at)}` : ''
            }}
            formatter={(value) => (typeof value === 'number' ? formatMs(value) : String(value))}
            contentStyle={{ background: 'var(--panel-raised)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
            labelStyle={{ color: 'var(--muted)' }}
          />
          <Legend verticalAlign="top" align="right" height={22} wrapperStyle={{ fontSize: 11 }} />
          <Bar dataKey="wait" name="mailbox wait" stackId="t" fill="var(--series-4)" isAnimationActive={false} />
          <Bar dataKey="rest" name="handling and commit" stackId="t" fill="var(--series-1)" isAnimationActive={false} />
        </BarChart>
      )}
    </Panel>
  )
}
