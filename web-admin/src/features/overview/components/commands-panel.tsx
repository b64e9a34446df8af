import { Panel } from '../../../components/panel'
import type { CommandStat } from '../../../lib/admin-types'
import { formatCount, formatMs, formatRate } from '../../../lib/format'

/** Lists every command type the server has run, with how many ran and how long they took on average. The slowest is marked. */
export function CommandsPanel({ commands, perSecond }: { readonly commands: readonly CommandStat[]; readonly perSecond: number }) {
  const sorted = [...commands].sort((a, b) => b.count - a.count || a.command.localeCompare(b.command))
  const slowest = Math.max(0, ...commands.map((c) => c.meanMs))
  return (
    <Panel title="Commands" aside={<span className="muted">{formatRate(perSecond)}/s now · since start</span>}>
      {sorted.length === 0 ? (
        <p className="empty">No commands yet.</p>
      ) : (
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Command</th>
              <th scope="col" className="num">
                Count
              </th>
              <th scope="col" className="num">
                Mean
              </th>
              <th scope="col" className="bar-col" aria-label="Mean, relative" />
            </tr>
          </thead>
          <tbody>
            {sorted.map((c) => (
              <tr key={c.command}>
                <td>
                  <code>{c.command}</code>
                </td>
                <td className="num">{formatCount(c.count)}</td>
                <td className="num">{formatMs(c.meanMs)}</td>
                <td className="bar-col">
                  <span className="bar" style={{ width: `${slowest > 0 ? (c.meanMs / slowest) * 100 : 0}%` }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  )
}
