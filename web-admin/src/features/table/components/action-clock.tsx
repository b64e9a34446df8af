import { useEffect, useState } from 'react'

/** Seconds left on the seat's clock, ticking on this browser's clock (the deadline is already converted). */
export function ActionClock({ deadline }: { readonly deadline: number }) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 250)
    return () => window.clearInterval(timer)
  }, [deadline])
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000))
  return (
    <span className="action-clock" role="timer" aria-label="Time to act">
      {seconds}s
    </span>
  )
}
