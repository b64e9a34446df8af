import { useNow } from '../hooks/use-now'

export interface CountdownProps {
  readonly closesAt: number
  /** Server time minus local time: the deadline is the server's, whatever the device's clock says. */
  readonly clockOffsetMs: number
  readonly seconds: number
  readonly className?: string
}

/** Seconds left on the server's deadline, with a bar that empties. */
export function Countdown({ closesAt, clockOffsetMs, seconds, className }: CountdownProps) {
  const now = useNow(200)
  const leftMs = Math.max(0, closesAt - (now + clockOffsetMs))
  const fraction = seconds > 0 ? Math.min(1, leftMs / (seconds * 1000)) : 0
  const shown = Math.ceil(leftMs / 1000)
  return (
    <div className={`countdown ${leftMs < 5000 ? 'urgent' : ''} ${className ?? ''}`} role="timer" aria-label={`${shown} seconds left`}>
      <span className="countdown-number" aria-hidden="true">
        {shown}
      </span>
      <span className="countdown-track" aria-hidden="true">
        <span className="countdown-fill" style={{ transform: `scaleX(${fraction})` }} />
      </span>
    </div>
  )
}
