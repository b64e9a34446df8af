import { useEffect, useRef } from 'react'

/** The keys a presenter's clicker sends for "next slide", and what a keyboard at the projector offers. */
export const NEXT_KEYS: readonly string[] = ['ArrowRight', 'PageDown', ' ']

/** Whether a key press belongs to the element it was typed in, not to the presenter. */
export function keyBelongsToTarget(key: string, target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  // Text typed in a field (a name, a number) belongs to the field, so no key there means "next".
  if (target.isContentEditable || target.closest('input, textarea, select')) return true
  // Space on a focused button or link presses that control, and the browser already does that.
  return key === ' ' && target.closest('button, a[href], [role="button"]') !== null
}

/**
 * Calls `onNext` for each press of Right arrow, Page Down or Space on the page while `enabled`. It
 * calls once per press (a held key's repeats are ignored), and never for a key typed in a field.
 */
export function usePresenterKeys(enabled: boolean, onNext: () => void): void {
  // This holds the latest handler, so that the listener is added once and never calls a stale one.
  const next = useRef(onNext)
  useEffect(() => {
    next.current = onNext
  }, [onNext])

  useEffect(() => {
    if (!enabled) return
    const onKey = (event: KeyboardEvent) => {
      if (!NEXT_KEYS.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
      if (keyBelongsToTarget(event.key, event.target)) return
      // Without this, Space and Page Down would scroll the page as well.
      event.preventDefault()
      if (!event.repeat) next.current()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [enabled])
}
