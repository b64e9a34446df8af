import { useEffect, useState } from 'react'

/**
 * Shows the seconds left on the seat's clock, ticking on this browser's clock (the deadline is
 * already converted to it). While the table's clocks hold because its database is away, it says
 * so instead.
 */
export function ActionClock({ deadline, paused = false }: { readonly deadline: number; readonly paused?: boolean }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 250)
    return () => window.clearInterval(timer)
  }, [deadline])
  if (paused) {
    return (
      <span className="action-clock paused" role="timer" aria-label="Clock paused: reconnecting to storage">
        paused
      </span>
    )
  }
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000))
  return (
    <span className="action-clock" role="timer" aria-label="Time to act">
      {seconds}s
    </span>
  )
}
