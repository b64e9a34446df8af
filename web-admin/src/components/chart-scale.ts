// These functions choose axis ticks a person reads at a glance: 0 and a few round steps (1, 2, 2.5
// or 5 times a power of ten) that just cover the data, instead of whatever the data's maximum
// happens to be.

const STEPS = [1, 2, 2.5, 5, 10]

/** Returns ticks from 0 to a round value at or above `max`, in 3 to 5 intervals. */
export function niceTicks(max: number, integer: boolean): number[] {
  const top = Math.max(max, integer ? 1 : Number.MIN_VALUE)
  let best: number[] | null = null
  for (const count of [4, 5, 3]) {
    const raw = top / count
    const magnitude = 10 ** Math.floor(Math.log10(raw))
    const step = STEPS.map((s) => s * magnitude).find((s) => s >= raw - 1e-12 && (!integer || Number.isInteger(s)))
    const usable = step ?? (integer ? Math.ceil(raw) : raw)
    const ticks = Array.from({ length: count + 1 }, (_, i) => +(i * usable).toPrecision(12))
    if (!best || ticks[count] < best[best.length - 1]) best = ticks
  }
  return best!
}

const TIME_STEPS_MS = [5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000]

/** Returns ticks on round times inside [start, end], using the finest step that gives at most `most` of them. */
export function timeTicks(start: number, end: number, most = 6): number[] {
  const span = Math.max(0, end - start)
  const step = TIME_STEPS_MS.find((s) => span / s <= most) ?? TIME_STEPS_MS.at(-1)!
  const ticks: number[] = []
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) ticks.push(t)
  return ticks
}
