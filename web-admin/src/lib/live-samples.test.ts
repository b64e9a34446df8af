import { describe, expect, it } from 'vitest'
import { overviewFixture, roomRowFixture } from '../testing/fixtures'
import { intervalMean, SampleHistory } from './live-samples'

describe('intervalMean', () => {
  it('is the exact mean of what ran between two cumulative snapshots', () => {
    // 10 commands at 2 ms, then 30 more at 6 ms, make 40 at 5 ms on average.
    expect(intervalMean({ count: 10, meanMs: 2 }, { count: 40, meanMs: 5 })).toEqual({ count: 30, meanMs: 6 })
  })

  it('is null without a baseline or without new commands', () => {
    expect(intervalMean(undefined, { count: 40, meanMs: 5 })).toBeNull()
    expect(intervalMean({ count: 40, meanMs: 5 }, { count: 40, meanMs: 5 })).toBeNull()
  })

  it('takes the new totals as the interval after a server restart', () => {
    expect(intervalMean({ count: 40, meanMs: 5 }, { count: 3, meanMs: 1 })).toEqual({ count: 3, meanMs: 1 })
  })
})

describe(SampleHistory.name, () => {
  it('samples the pool, latency per command and mailbox depths', () => {
    const history = new SampleHistory(60_000, 5)
    history.addOverview(overviewFixture(), 1000)
    history.addRooms({ rooms: [roomRowFixture({ code: 'AAAAAA', mailboxDepth: 2 }), roomRowFixture({ code: 'BBBBBB', mailboxDepth: 5 })] })
    history.addOverview(
      overviewFixture({
        commands: [
          { command: 'room.answer', count: 50, meanMs: 5 },
          { command: 'room.start', count: 2, meanMs: 6 },
          { command: 'ping', count: 2, meanMs: 1 },
        ],
        pool: { total: 6, idle: 1, waiting: 2, max: 10 },
      }),
      2000,
    )
    const [first, second] = history.samples
    expect(first).toMatchObject({ t: 1000, latencyAllMs: null, mailboxTotal: 7, mailboxDeepest: 5 })
    // room.answer ran 10 more times, at 7 ms. ping is new and ran twice, at 1 ms.
    expect(second.latencyMs).toEqual({ 'room.answer': 7, ping: 1 })
    expect(second.latencyAllMs).toBeCloseTo((10 * 7 + 2 * 1) / 12)
    expect(second).toMatchObject({ poolInUse: 5, poolIdle: 1, poolWaiting: 2, poolMax: 10 })
  })

  it('measures latency over the last few snapshots', () => {
    const history = new SampleHistory(60_000, 2)
    const answers = (count: number, meanMs: number) => overviewFixture({ commands: [{ command: 'room.answer', count, meanMs }] })
    history.addOverview(answers(10, 1), 1000)
    history.addOverview(answers(20, 2), 2000)
    history.addOverview(answers(20, 2), 3000)
    history.addOverview(answers(20, 2), 4000)
    // The sample at 3000 against the one at 1000 holds the 10 that ran at 3 ms. The sample at 4000
    // against the one at 2000 holds nothing.
    expect(history.samples.map((s) => s.latencyAllMs)).toEqual([null, 3, 3, null])
  })

  it('keeps only the window', () => {
    const history = new SampleHistory(10_000)
    for (let t = 0; t <= 30_000; t += 1000) history.addOverview(overviewFixture(), t)
    expect(history.samples[0].t).toBe(21_000)
    expect(history.samples).toHaveLength(10)
  })
})
