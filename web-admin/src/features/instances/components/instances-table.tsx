import type { InstanceRow } from '../../../lib/admin-types'
import { formatAge, formatCount } from '../../../lib/format'

export interface InstancesTableProps {
  readonly instances: readonly InstanceRow[]
  /** Epoch ms on this machine's clock, for "up for". */
  readonly now: number
}

const STATUS_TEXT: Record<InstanceRow['status'], string> = { up: 'up', silent: 'silent', stopped: 'stopped' }

/** Lists every instance by name. The one serving this console is marked, and a silent one stands out. */
export function InstancesTable({ instances, now }: InstancesTableProps) {
  return (
    <table className="table instances-table">
      <thead>
        <tr>
          <th scope="col">Instance</th>
          <th scope="col">Status</th>
          <th scope="col">Health</th>
          <th scope="col" className="num">
            Rooms
          </th>
          <th scope="col" className="num">
            Last seen
          </th>
          <th scope="col" className="num">
            Up for
          </th>
          <th scope="col" className="num">
            Pid
          </th>
          <th scope="col">URL</th>
        </tr>
      </thead>
      <tbody>
        {instances.length === 0 && (
          <tr>
            <td colSpan={8} className="empty">
              No instance has written its heartbeat yet.
            </td>
          </tr>
        )}
        {instances.map((i) => (
          <tr key={i.name} data-instance={i.name} className={i.status === 'silent' ? 'instance-silent' : undefined}>
            <td className="mono">
              {i.name}
              {i.self && <span className="muted"> · this console</span>}
            </td>
            <td>
              <span className={`badge instance-${i.status}`}>{STATUS_TEXT[i.status]}</span>
            </td>
            <td>{i.health}</td>
            <td className="num" data-col="rooms">
              {formatCount(i.rooms)}
            </td>
            <td className="num" data-col="seen">
              {i.self ? 'now' : `${formatAge(i.seenSecondsAgo)} ago`}
            </td>
            <td className="num">{formatAge((now - i.startedAt) / 1000)}</td>
            <td className="num mono">{i.pid}</td>
            <td className="mono">{i.url}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
