import { useNow } from '../hooks/use-now'

export interface CountdownProps {
  readonly closesAt: number
  /** Server time minus local time. The deadline is the server's, whatever the device's clock says. */
  readonly clockOffsetMs: number
  readonly seconds: number
  readonly className?: string
  /** True while the room's clocks hold because its database is away. Nothing runs out then, so no number counts down. */
  readonly paused?: boolean
}

/** Shows the seconds left on the server's deadline, with a bar that empties. While the room's clocks hold, it says so instead. */
export function Countdown({ closesAt, clockOffsetMs, seconds, className, paused = false }: CountdownProps) {
  const now = useNow(200)
  if (paused) {
    return (
      <div className={`countdown paused ${className ?? ''}`} role="timer" aria-label="Clock paused: reconnecting to storage">
        <span className="countdown-paused">Paused</span>
      </div>
    )
  }
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
