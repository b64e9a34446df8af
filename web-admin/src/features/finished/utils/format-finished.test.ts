import { describe, expect, it } from 'vitest'
import { formatDuration, formatNames } from './format-finished'
import { currentCursor, FIRST_PAGE, nextPage, pageNumber, previousPage } from './pages'

describe('finished games formatting', () => {
  it('says how long a game lasted', () => {
    expect([formatDuration(38_200), formatDuration(245_000), formatDuration(3_900_000), formatDuration(-1)]).toEqual([
      '38 s',
      '4 min 05 s',
      '1 h 05 min',
      '—',
    ])
  })

  it('names a few players and counts the rest', () => {
    expect([formatNames([]), formatNames(['Ann']), formatNames(['Ann', 'Bob', 'Cy', 'Dee', 'Eve'])]).toEqual([
      '—',
      'Ann',
      'Ann, Bob, Cy +2',
    ])
  })
})

describe('keyset paging', () => {
  it('goes forward with the server’s next cursor and back through the ones seen', () => {
    const second = nextPage(FIRST_PAGE, 'c2')
    const third = nextPage(second, 'c3')
    expect([currentCursor(third), pageNumber(third)]).toEqual(['c3', 3])
    expect(previousPage(third)).toEqual(second)
    expect(currentCursor(previousPage(second))).toBeNull()
    expect(previousPage(FIRST_PAGE)).toBe(FIRST_PAGE)
  })
})
