import { Gauge } from '../../../components/gauge'
import { Panel } from '../../../components/panel'
import type { Overview } from '../../../lib/admin-types'
import { formatCount, formatMs } from '../../../lib/format'

/** Shows the PostgreSQL pool against its maximum: how many connections are open, busy and idle, and who is queuing. */
export function PoolPanel({ overview }: { readonly overview: Overview }) {
  const { pool, poolAcquire } = overview
  const inUse = Math.max(0, pool.total - pool.idle)
  const busyTone = inUse >= pool.max ? 'bad' : inUse >= pool.max * 0.8 ? 'warn' : 'normal'
  return (
    <Panel title="Database pool" aside={<span className="muted">max {pool.max}</span>}>
      <div className="gauges">
        <Gauge label="Connections open" value={pool.total} max={pool.max} caption="total in the pool" />
        <Gauge label="In use" value={inUse} max={pool.max} caption="checked out now" tone={busyTone} />
        <Gauge label="Idle" value={pool.idle} max={pool.max} caption="open, free" />
        <Gauge
          label="Waiting"
          value={pool.waiting}
          max={pool.max}
          caption="queued for a connection"
          tone={pool.waiting > 0 ? 'bad' : 'normal'}
        />
      </div>
      <div className="acquire" role="group" aria-label="Acquire wait">
        <span className="muted">Acquire wait</span>
        <strong>{formatMs(poolAcquire.count > 0 ? poolAcquire.meanMs : null)}</strong>
        <span className="muted">mean over {formatCount(poolAcquire.count)} checkouts</span>
      </div>
    </Panel>
  )
}
