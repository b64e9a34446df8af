import { useState } from 'react'
import { Panel } from '../../../components/panel'
import { formatClockMs, statusClass } from '../../../lib/format'
import { useAdminGet } from '../../finished/api/get-finished'
import { Pager } from '../../finished/components/pager'
import { currentCursor, FIRST_PAGE, nextPage, pageNumber, previousPage, type PageTrail } from '../../finished/utils/pages'
import { refusalsPath, type RefusalsPage, type RefusedCommand } from '../api/get-refusals'

/**
 * Lists the room's refused commands from PostgreSQL, whether the room is live or closed, newest
 * first and a page at a time: what was refused, to whom, and why. The list is read when the page
 * opens and on Refresh. It is not pushed, because a refusal is written about a second after it was
 * answered.
 */
export function RefusalsPanel({ code }: { readonly code: string }) {
  const [trail, setTrail] = useState<PageTrail>(FIRST_PAGE)
  const [asked, setAsked] = useState(0)
  const loaded = useAdminGet<RefusalsPage>(refusalsPath(code, currentCursor(trail)), asked)
  const kept = loaded.state === 'ready' ? ` · kept ${loaded.value.keptDays} days` : ''
  return (
    <Panel
      title="Refused commands"
      aside={
        <>
          <span className="muted">newest first{kept}</span>
          <button type="button" className="button small ghost" onClick={() => (setTrail(FIRST_PAGE), setAsked(asked + 1))}>
            Refresh
          </button>
        </>
      }
    >
      {loaded.state === 'loading' && <p className="loading">Loading refused commands…</p>}
      {loaded.state === 'failed' && (
        <p className="page-error" role="alert">
          {loaded.status === 404 ? `No room has had code ${code}.` : `Could not load the refused commands: ${loaded.message}`}
        </p>
      )}
      {loaded.state === 'ready' &&
        (loaded.value.refusals.length === 0 ? (
          <p className="empty">No refused commands.</p>
        ) : (
          <RefusalsTable refusals={loaded.value.refusals} />
        ))}
      <Pager
        label="Refused commands pages"
        page={pageNumber(trail)}
        hasPrevious={pageNumber(trail) > 1}
        hasNext={loaded.state === 'ready' && loaded.value.next !== null}
        onPrevious={() => setTrail(previousPage(trail))}
        onNext={() => loaded.state === 'ready' && loaded.value.next && setTrail(nextPage(trail, loaded.value.next))}
      />
    </Panel>
  )
}

function RefusalsTable({ refusals }: { readonly refusals: readonly RefusedCommand[] }) {
  return (
    <div className="scroll">
      <table className="table compact refusals-table">
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col">From</th>
            <th scope="col">Command</th>
            <th scope="col">Error</th>
            <th scope="col" className="num">
              Status
            </th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {refusals.map((r, i) => (
            <tr key={`${r.at}-${i}`}>
              <td className="mono muted" title={new Date(r.at).toISOString()}>
                {formatClockMs(r.at)}
              </td>
              <td>{who(r)}</td>
              <td>{r.type ? <code>{r.type}</code> : <span className="muted">(not a frame)</span>}</td>
              <td>
                <code>{r.code}</code>
              </td>
              <td className="num">
                <span className={`status status-${statusClass(r.status)}`}>{r.status}</span>
              </td>
              <td className="refusal-message">{r.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Names a player by name (with the id on hover), and anyone else by role. */
function who(r: RefusedCommand) {
  if (r.by !== 'player') return <span className="muted">{r.by}</span>
  return <span title={r.playerId ?? undefined}>{r.name ?? r.playerId ?? 'player'}</span>
}
