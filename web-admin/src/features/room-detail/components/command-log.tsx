import { Panel } from '../../../components/panel'
import type { RoomCommand } from '../../../lib/admin-types'
import { formatClockMs, formatMs, statusClass } from '../../../lib/format'

/** Lists the room's last commands: the time queued in the mailbox, the time running, the outcome and the round trips. */
export function CommandLog({ commands }: { readonly commands: readonly RoomCommand[] }) {
  const newestFirst = [...commands].reverse()
  return (
    <Panel title="Last commands" aside={<span className="muted">newest first · the server keeps 100</span>}>
      {commands.length === 0 ? (
        <p className="empty">No commands yet.</p>
      ) : (
        <div className="scroll">
          <table className="table compact command-log">
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Command</th>
                <th scope="col" className="num">
                  Mailbox wait
                </th>
                <th scope="col" className="num" title="From arrival to reply, mailbox wait included">
                  Duration
                </th>
                <th scope="col" className="num">
                  Status
                </th>
                <th scope="col" className="num">
                  Round trips
                </th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((c, i) => (
                <tr key={`${c.at}-${commands.length - i}`}>
                  <td className="mono muted">{formatClockMs(c.at)}</td>
                  <td>
                    <code>{c.type}</code>
                  </td>
                  <td className="num">{formatMs(c.mailboxWaitMs)}</td>
                  <td className="num">{formatMs(c.ms)}</td>
                  <td className="num">
                    <span className={`status status-${statusClass(c.status)}`}>{c.status}</span>
                  </td>
                  <td className="num">{c.roundTrips}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  )
}
