import { Panel } from '../../../components/panel'
import type { Overview } from '../../../lib/admin-types'
import { DASH, formatClock, formatCount, formatMs } from '../../../lib/format'
import { SIGNAL_NAMES } from './signal-names'

type Admission = Overview['admission']

/**
 * Shows both admission gates. The main gate sheds new work when any signal holds its mark, and the
 * table shows each signal against that mark. The gate of new anonymous work sheds earlier, on the
 * event-loop delay alone, and has its own line below.
 */
export function AdmissionPanel({ admission }: { readonly admission: Admission }) {
  return (
    <Panel
      title="Admission"
      aside={
        <span className="muted">
          {admission.shedding && admission.since !== null ? `shedding since ${formatClock(admission.since)} · ` : ''}
          {formatCount(admission.refused)} refused since start
        </span>
      }
    >
      <p className="muted">
        {admission.shedding && admission.cause
          ? `Shedding new work (opening, joining, spectating, loading rooms) with 503 overloaded: ${SIGNAL_NAMES[admission.cause].toLowerCase()} is too high. Rooms already live go on.`
          : 'Admitting new work.'}
      </p>
      <table className="table compact">
        <thead>
          <tr>
            <th scope="col">Signal</th>
            <th scope="col" className="num">
              Level
            </th>
            <th scope="col" className="num">
              Sheds at
            </th>
            <th scope="col" className="num">
              Admits below
            </th>
          </tr>
        </thead>
        <tbody>
          {admission.signals.map((s) => (
            <tr key={s.signal}>
              <td>
                {SIGNAL_NAMES[s.signal]}
                {s.signal === 'commit_wait' && <div className="signal-note muted">{commitFloorNote(admission.commitFloorMs)}</div>}
              </td>
              <td className="num">{formatMs(s.levelMs)}</td>
              <td className="num">{s.markMs > 0 ? formatMs(s.markMs) : 'off'}</td>
              <td className="num">{s.markMs > 0 ? formatMs(s.admitBelowMs) : DASH}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <AnonymousGate gate={admission.anonymous} />
    </Panel>
  )
}

// A commit's wait includes the database's distance, which no shedding shortens. So the server
// measures the commit wait above the fastest commit of the last minute, and the console shows that
// floor: a database 60 ms away then reads as distance, not as load.
function commitFloorNote(floorMs: number): string {
  return `above the fastest commit of the last minute: ${floorMs > 0 ? formatMs(floorMs) : 'none came'}`
}

/** The gate of new anonymous work: whether it sheds now, its event-loop marks, and what it refused. */
function AnonymousGate({ gate }: { readonly gate: Admission['anonymous'] }) {
  const state = !gate.shedding ? 'admitted' : gate.since !== null ? `shedding since ${formatClock(gate.since)}` : 'shedding'
  return (
    <div className="gate-line" role="group" aria-label="New anonymous work">
      <p>
        New anonymous work (opening, joining, deck writes, lookups, spectator seats): <strong>{state}</strong>
        {gate.shedding ? ', with 503 overloaded, because the event loop runs late. Rooms already live go on.' : '.'}
      </p>
      <p className="muted">
        {gate.markMs > 0
          ? `Shed while the event-loop delay holds ${formatMs(gate.markMs)}; admitted again below ${formatMs(gate.admitBelowMs)}.`
          : 'Its event-loop mark is off, so it sheds nothing.'}{' '}
        {formatCount(gate.refused)} refused by this gate since start.
      </p>
    </div>
  )
}
