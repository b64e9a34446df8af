import { Stat } from '../../../components/stat'
import { formatCount, formatMs, formatRate, shortSha } from '../../../lib/format'
import { LATENCY_SPAN } from '../../../lib/live-samples'
import { useOverview } from '../api/get-overview'
import { AdmissionPanel } from './admission-panel'
import { CommandsPanel } from './commands-panel'
import { LiveCharts } from './live-charts'
import { PoolPanel } from './pool-panel'
import { SIGNAL_NAMES } from './signal-names'

export function OverviewPage() {
  const { overview, samples, error } = useOverview()
  if (!overview) {
    return <p className={error ? 'page-error' : 'loading'}>{error ? `Could not load the overview: ${error}` : 'Loading the overview…'}</p>
  }
  const { sockets } = overview
  const socketsTotal = sockets.host + sockets.player + sockets.spectator
  const latest = samples.at(-1)
  return (
    <div className="page">
      <div className="stats">
        <Stat label="Rooms active" value={formatCount(overview.rooms)} detail="live in this server" />
        <Stat
          label="Sockets"
          value={formatCount(socketsTotal)}
          detail={
            <>
              {sockets.host} host · {sockets.player} player · {sockets.spectator} spectator
            </>
          }
        />
        <Stat
          label="Commands per second"
          value={formatRate(overview.commandsPerSecond)}
          detail={
            latest?.latencyAllMs != null
              ? `mean ${formatMs(latest.latencyAllMs)} over the last ${LATENCY_SPAN} s`
              : `none in the last ${LATENCY_SPAN} s`
          }
        />
        <Stat
          label="Pool acquire wait"
          value={formatMs(overview.poolAcquire.count > 0 ? overview.poolAcquire.meanMs : null)}
          detail={`${overview.pool.total - overview.pool.idle} of ${overview.pool.max} in use · ${overview.pool.waiting} waiting`}
          tone={overview.pool.waiting > 0 ? 'bad' : 'normal'}
        />
        <Stat
          label="Admission"
          value={overview.admission.shedding ? 'Shedding' : 'Admitting'}
          detail={
            overview.admission.shedding && overview.admission.cause
              ? `new work gets 503: ${SIGNAL_NAMES[overview.admission.cause].toLowerCase()} too high`
              : overview.admission.anonymous.shedding
                ? 'new anonymous work gets 503: the event loop runs late'
                : `${formatCount(overview.admission.refused)} refused as overloaded since start`
          }
          tone={overview.admission.shedding ? 'bad' : overview.admission.anonymous.shedding ? 'warn' : 'normal'}
        />
        <Stat
          label="Build"
          value={<span className="mono">{overview.build.version}</span>}
          detail={<span className="mono">{shortSha(overview.build.sha)}</span>}
        />
      </div>
      <div className="split">
        <PoolPanel overview={overview} />
        <CommandsPanel commands={overview.commands} perSecond={overview.commandsPerSecond} />
      </div>
      <AdmissionPanel admission={overview.admission} />
      <LiveCharts samples={samples} />
    </div>
  )
}
