import { Panel } from '../../../components/panel'
import type { Overview } from '../../../lib/admin-types'
import { DASH, formatClock, formatCount, formatMs } from '../../../lib/format'
import { SIGNAL_NAMES } from './signal-names'

type Admission = Overview['admission']

/** Shows whether the server sheds new work as overloaded, and each signal it decides by, against that signal's mark. */
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
              <td>{SIGNAL_NAMES[s.signal]}</td>
              <td className="num">{formatMs(s.levelMs)}</td>
              <td className="num">{s.markMs > 0 ? formatMs(s.markMs) : 'off'}</td>
              <td className="num">{s.markMs > 0 ? formatMs(s.admitBelowMs) : DASH}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  )
}
