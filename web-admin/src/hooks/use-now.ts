import { useEffect, useState } from 'react'

/**
 * The local time, re-read every `everyMs`, for countdowns and "12 s ago". It is only a clock for
 * the display: data still arrives by push.
 */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
