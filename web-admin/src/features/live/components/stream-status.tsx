import { formatAge, formatClock } from '../../../lib/format'
import { useStreamStatus } from '../../../lib/live-context'
import { useNow } from '../../../hooks/use-now'

/** The header's pill, which answers the operator's question "is what I see live?". */
export function StreamStatusPill() {
  const status = useStreamStatus()
  const label = status.phase === 'live' ? 'Live' : status.phase === 'down' ? 'Stream down' : 'Connecting…'
  return (
    <span
      className={`stream-pill stream-${status.phase}`}
      title={status.lastMessageAt ? `Last update ${formatClock(status.lastMessageAt)}` : undefined}
    >
      <span className="stream-dot" aria-hidden="true" />
      {label}
    </span>
  )
}

/** Shows a banner across the page while the stream is down, so that nobody acts on numbers that stopped moving. */
export function StreamDownBanner() {
  const status = useStreamStatus()
  const now = useNow(1000)
  if (status.phase !== 'down') return null
  const retryIn = status.retryAt ? Math.max(0, Math.ceil((status.retryAt - now) / 1000)) : null
  return (
    <div className="stream-banner" role="alert">
      <strong>Stream down, reconnecting{retryIn !== null ? ` in ${retryIn}s` : '…'}</strong>
      <span>
        {status.downSince !== null && <>Down for {formatAge((now - status.downSince) / 1000)}. </>}
        {status.lastMessageAt !== null
          ? `The numbers below are from ${formatClock(status.lastMessageAt)} and are not moving.`
          : 'What is shown was loaded with the page and is not moving.'}
      </span>
    </div>
  )
}
