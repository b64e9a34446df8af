import { describe, expect, it } from 'vitest'
import { niceTicks, timeTicks } from './chart-scale'

describe('niceTicks', () => {
  it('covers the maximum with round steps', () => {
    expect(niceTicks(10, true)).toEqual([0, 2, 4, 6, 8, 10])
    expect(niceTicks(4, true)).toEqual([0, 1, 2, 3, 4])
    expect(niceTicks(5.5, false)).toEqual([0, 2, 4, 6])
    expect(niceTicks(0.9, false)).toEqual([0, 0.25, 0.5, 0.75, 1])
    expect(niceTicks(27.4, false)).toEqual([0, 10, 20, 30])
  })

  it('gives integer charts integer ticks even when they are nearly empty', () => {
    expect(niceTicks(0, true)).toEqual([0, 1, 2, 3])
    expect(niceTicks(7, true)).toEqual([0, 2, 4, 6, 8])
  })
})

describe('timeTicks', () => {
  it('puts ticks on round times, finer for a short span', () => {
    expect(timeTicks(30_000, 330_000)).toEqual([60_000, 120_000, 180_000, 240_000, 300_000])
    expect(timeTicks(1_000, 41_000)).toEqual([10_000, 20_000, 30_000, 40_000])
  })
})
