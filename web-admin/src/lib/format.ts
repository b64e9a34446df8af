// These functions write numbers for the console: short, with units, and a dash for "nothing yet".

export const DASH = '—'

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return DASH
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s`
  if (ms >= 100) return `${Math.round(ms)} ms`
  if (ms >= 10) return `${ms.toFixed(1)} ms`
  return `${ms.toFixed(2)} ms`
}

export function formatCount(n: number): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: 0 }).format(n)
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 100) return formatCount(perSecond)
  return perSecond.toFixed(1)
}

export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`
  return `${Math.floor(h / 24)}d ${h % 24}h`
}

/** A chart axis label, as short as it can be while still exact: "0.25 ms", "40 ms", "1.5 s". */
export function formatMsAxis(ms: number): string {
  if (ms >= 1000) return `${+(ms / 1000).toPrecision(3)} s`
  return `${+ms.toPrecision(3)} ms`
}

/** Hours and minutes, for a time axis with a tick a minute. */
export function formatClockMinutes(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString('en-GB', { hour12: false, hour: '2-digit', minute: '2-digit' })
}

/** Wall-clock time of day, to the second. */
export function formatClock(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString('en-GB', { hour12: false })
}

/** To the millisecond, for command logs. */
export function formatClockMs(epochMs: number): string {
  const d = new Date(epochMs)
  return `${d.toLocaleTimeString('en-GB', { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`
}

/** The class that colours a status: ok for 2xx, refused for 4xx, failed for 5xx. */
export function statusClass(status: number): 'ok' | 'refused' | 'failed' {
  if (status >= 500) return 'failed'
  if (status >= 400) return 'refused'
  return 'ok'
}

/** Writes a commit as people quote it: 7 hex digits, keeping a suffix such as "-dirty". */
export function shortSha(sha: string): string {
  return sha.replace(/^([0-9a-f]{7})[0-9a-f]+/i, '$1')
}
