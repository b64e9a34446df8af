import { DASH } from '../../../lib/format'

/** A moment as operators read it in lists: "2 Dec 2026, 09:14" in the browser's zone. */
export function formatWhen(epochMs: number): string {
  return new Date(epochMs).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
}

/** How long a game lasted: "4 min 05 s", "38 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return DASH
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`
}

/** Up to three names, then how many more: "Ann, Bob, Cy +2". */
export function formatNames(names: readonly string[], shown = 3): string {
  if (names.length === 0) return DASH
  const head = names.slice(0, shown).join(', ')
  return names.length > shown ? `${head} +${names.length - shown}` : head
}
