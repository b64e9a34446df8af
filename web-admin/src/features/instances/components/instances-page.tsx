import { Panel } from '../../../components/panel'
import { useNow } from '../../../hooks/use-now'
import { useInstances } from '../api/get-instances'
import { InstancesTable } from './instances-table'

/** Shows the instances sharing this database, whichever of them serves the console. */
export function InstancesPage() {
  const { instances, error } = useInstances()
  const now = useNow(1000)
  if (!instances) {
    return <p className={error ? 'page-error' : 'loading'}>{error ? `Could not load the instances: ${error}` : 'Loading instances…'}</p>
  }
  const up = instances.instances.filter((i) => i.status === 'up').length
  const rooms = instances.instances.reduce((n, i) => n + (i.status === 'up' ? i.rooms : 0), 0)
  return (
    <div className="page">
      <Panel
        title="Instances"
        aside={
          <span className="muted">
            {up} of {instances.instances.length} up · {rooms} live rooms
          </span>
        }
      >
        <InstancesTable instances={instances.instances} now={now} />
        <p className="legend-line muted">
          Each instance writes its row every few seconds; one that missed three is silent (down, cut off or frozen). The Rooms view lists
          the rooms of the instance serving this console.
        </p>
      </Panel>
    </div>
  )
}
