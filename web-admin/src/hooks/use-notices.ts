import { useCallback, useEffect, useRef, useState } from 'react'

export interface Notice {
  readonly id: number
  readonly tone: 'ok' | 'error'
  readonly text: string
}

/** Keeps the results of actions, newest last. Each fades after a while, and errors stay longer. */
export function useNotices(): {
  notices: readonly Notice[]
  push: (tone: Notice['tone'], text: string) => void
  dismiss: (id: number) => void
} {
  const [notices, setNotices] = useState<readonly Notice[]>([])
  const nextId = useRef(1)
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>())

  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), [])
  const push = useCallback(
    (tone: Notice['tone'], text: string) => {
      const id = nextId.current++
      setNotices((list) => [...list.slice(-3), { id, tone, text }])
      const timer = setTimeout(
        () => {
          timers.current.delete(timer)
          dismiss(id)
        },
        tone === 'error' ? 20_000 : 8_000,
      )
      timers.current.add(timer)
    },
    [dismiss],
  )
  useEffect(() => {
    const pending = timers.current
    return () => pending.forEach(clearTimeout)
  }, [])
  return { notices, push, dismiss }
}
