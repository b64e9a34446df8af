import type { CommandStat, Overview, RoomsSnapshot } from './admin-types'

// The charts' memory keeps one sample per overview message for the last few minutes, in the tab.
// The overview reports totals since the server started (count and mean per command), so the
// latency over an interval comes from the difference of two snapshots. That latency is exact, not a
// mean of means. The interval spans the last few snapshots rather than the last one: at a command
// or two a second, most single seconds are empty and the line would be all gaps.

export const SAMPLE_WINDOW_MS = 5 * 60 * 1000
/** Snapshots per latency interval. With one snapshot a second, this is the same 5 s that the server's rate uses. */
export const LATENCY_SPAN = 5

export interface LiveSample {
  /** Epoch ms on this machine's clock when the sample arrived. */
  readonly t: number
  readonly commandsPerSecond: number
  /** Mean command duration over the last LATENCY_SPAN snapshots, per command type. */
  readonly latencyMs: Readonly<Record<string, number>>
  /** The same over all command types; null when no command ran. */
  readonly latencyAllMs: number | null
  readonly poolInUse: number
  readonly poolIdle: number
  readonly poolWaiting: number
  readonly poolMax: number
  /** Mean pool acquire wait over the same span; null when nothing was acquired. */
  readonly acquireMs: number | null
  /** Commands queued in all mailboxes. */
  readonly mailboxTotal: number
  /** The deepest single mailbox. */
  readonly mailboxDeepest: number
}

const NONE = { count: 0, meanMs: 0 }

interface Totals {
  readonly commands: ReadonlyMap<string, CommandStat>
  readonly acquire: { readonly count: number; readonly meanMs: number }
}

export class SampleHistory {
  private list: LiveSample[] = []
  /** The totals of the last LATENCY_SPAN snapshots, oldest first. The oldest is the baseline. */
  private totals: Totals[] = []
  private mailbox = { total: 0, deepest: 0 }
  private readonly windowMs: number
  private readonly latencySpan: number

  constructor(windowMs: number = SAMPLE_WINDOW_MS, latencySpan: number = LATENCY_SPAN) {
    this.windowMs = windowMs
    this.latencySpan = latencySpan
  }

  get samples(): readonly LiveSample[] {
    return this.list
  }

  addOverview(overview: Overview, t: number): void {
    const commands = new Map(overview.commands.map((c) => [c.command, c]))
    const latencyMs: Record<string, number> = {}
    let intervalCount = 0
    let intervalSumMs = 0
    const baseline = this.totals[0]
    for (const [name, now] of commands) {
      // A command type missing from the baseline had not run yet, so all its runs happened since.
      const before = baseline ? (baseline.commands.get(name) ?? NONE) : undefined
      const delta = intervalMean(before, now)
      if (delta) {
        latencyMs[name] = delta.meanMs
        intervalCount += delta.count
        intervalSumMs += delta.meanMs * delta.count
      }
    }
    const acquire = intervalMean(baseline?.acquire, overview.poolAcquire)
    this.totals = [...this.totals, { commands, acquire: overview.poolAcquire }].slice(-this.latencySpan)
    const { pool } = overview
    this.list = [
      ...this.list.filter((s) => s.t > t - this.windowMs),
      {
        t,
        commandsPerSecond: overview.commandsPerSecond,
        latencyMs,
        latencyAllMs: intervalCount > 0 ? intervalSumMs / intervalCount : null,
        poolInUse: Math.max(0, pool.total - pool.idle),
        poolIdle: pool.idle,
        poolWaiting: pool.waiting,
        poolMax: pool.max,
        acquireMs: acquire?.meanMs ?? null,
        mailboxTotal: this.mailbox.total,
        mailboxDeepest: this.mailbox.deepest,
      },
    ]
  }

  /** Mailbox depths come with the rooms message, and they update the newest sample in place. */
  addRooms(snapshot: RoomsSnapshot): void {
    let total = 0
    let deepest = 0
    for (const room of snapshot.rooms) {
      total += room.mailboxDepth
      deepest = Math.max(deepest, room.mailboxDepth)
    }
    this.mailbox = { total, deepest }
    const last = this.list.at(-1)
    if (last) this.list = [...this.list.slice(0, -1), { ...last, mailboxTotal: total, mailboxDeepest: deepest }]
  }
}

/**
 * The count and mean of what happened between two cumulative snapshots. It is null when nothing
 * happened, or when there is no earlier snapshot to compare with, because totals since the server
 * started are not an interval. A count that went down means the server restarted, and then the
 * new totals are the interval.
 */
export function intervalMean(
  before: { readonly count: number; readonly meanMs: number } | undefined,
  now: { readonly count: number; readonly meanMs: number },
): { count: number; meanMs: number } | null {
  if (!before) return null
  if (now.count < before.count) return now.count === 0 ? null : { count: now.count, meanMs: now.meanMs }
  const count = now.count - before.count
  if (count === 0) return null
  const meanMs = (now.count * now.meanMs - before.count * before.meanMs) / count
  // Floating error can push a near-zero interval mean slightly negative.
  return { count, meanMs: Math.max(0, meanMs) }
}
