import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from '../../../lib/session'
import { finishedGameFixture } from '../finished-fixture'
import { FinishedPage } from './finished-page'

/** A fetch that answers each URL with `respond`, and keeps the URLs asked for. */
function serve(respond: (url: URL) => { status: number; body: unknown }) {
  const urls: URL[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (raw: string) => {
      const url = new URL(raw, 'http://console.test')
      urls.push(url)
      const { status, body } = respond(url)
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }),
  )
  return urls
}

const rows = () =>
  within(screen.getByRole('region', { name: 'Finished games' }))
    .getAllByRole('row')
    .slice(1)
const codes = () => rows().map((r) => r.querySelector('.room-code')?.textContent)

describe(FinishedPage.name, () => {
  beforeEach(() => session.signedIn())
  afterEach(() => vi.unstubAllGlobals())

  it('lists finished games newest first: finished, code, game, host, players, names, winner, started, how long', async () => {
    const urls = serve(() => ({
      status: 200,
      body: {
        games: [
          finishedGameFixture(),
          finishedGameFixture({
            id: 'g2',
            code: 'Q4TZ8M',
            game: 'tictactoe',
            hostName: null,
            number: 1,
            players: { count: 2, names: ['Xena', 'Otto'] },
            winner: null,
          }),
        ],
        next: null,
      },
    }))
    render(<FinishedPage />)
    expect(await screen.findByRole('link', { name: 'Game 1 of room K7QMPD' })).toHaveAttribute(
      'href',
      expect.stringMatching(new RegExp(`/finished/${finishedGameFixture().id}$`)),
    )
    expect(urls.map((u) => u.pathname + u.search)).toEqual(['/admin/api/finished?limit=20'])
    const cells = rows().map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))
    expect(cells[0].slice(1, 7)).toEqual(['K7QMPD', 'trivia', 'Hugo', '3', 'Ann, Cy, Bob', 'Ann'])
    expect(cells[0][8]).toBe('4 min 05 s')
    expect(cells[1].slice(1, 7)).toEqual(['Q4TZ8M', 'tictactoe', '—', '2', 'Xena, Otto', '—'])
    expect(rows()[0].querySelector('time')?.getAttribute('datetime')).toBe('2026-03-14T09:30:05.000Z')
    // With only one page, there is no pager.
    expect(screen.queryByRole('navigation', { name: 'Finished games pages' })).not.toBeInTheDocument()
  })

  it('searches by code and a range of days, and starts again at the first page', async () => {
    const user = userEvent.setup()
    const urls = serve((url) => ({
      status: 200,
      body: { games: url.searchParams.get('code') ? [finishedGameFixture({ code: 'K7QMPD' })] : [], next: null },
    }))
    render(<FinishedPage />)
    expect(await screen.findByText('No game has finished yet.')).toBeInTheDocument()
    const form = screen.getByRole('search', { name: 'Search finished games' })
    await user.type(within(form).getByPlaceholderText('K7QMPD'), ' k7qmpd ')
    await user.type(within(form).getByLabelText('From'), '2026-03-01')
    await user.type(within(form).getByLabelText('To'), '2026-03-31')
    await user.click(within(form).getByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('link', { name: 'Game 1 of room K7QMPD' })).toBeInTheDocument()
    const asked = urls[urls.length - 1]
    expect(Object.fromEntries(asked.searchParams)).toEqual({ code: 'k7qmpd', from: '2026-03-01', to: '2026-03-31', limit: '20' })
    await user.click(within(form).getByRole('button', { name: 'Clear' }))
    expect(await screen.findByText('No game has finished yet.')).toBeInTheDocument()
    expect(urls[urls.length - 1].search).toBe('?limit=20')
  })

  it('says when nothing matches a search, and shows the server’s refusal of a bad one', async () => {
    const user = userEvent.setup()
    serve((url) =>
      url.searchParams.get('code') === 'OOOOOO'
        ? { status: 400, body: { statusCode: 400, code: 'bad_data', message: 'code must be a room code: 6 letters and digits' } }
        : { status: 200, body: { games: [], next: null } },
    )
    render(<FinishedPage />)
    await screen.findByText('No game has finished yet.')
    const form = screen.getByRole('search', { name: 'Search finished games' })
    await user.type(within(form).getByPlaceholderText('K7QMPD'), 'ABCDEF')
    await user.click(within(form).getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('No finished game matches this search.')).toBeInTheDocument()
    await user.clear(within(form).getByPlaceholderText('K7QMPD'))
    await user.type(within(form).getByPlaceholderText('K7QMPD'), 'OOOOOO')
    await user.click(within(form).getByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('bad_data (400)')
  })

  it('pages older with the server’s cursor and newer through the cursors seen', async () => {
    const user = userEvent.setup()
    const pages: Record<string, { games: unknown[]; next: string | null }> = {
      '': { games: [finishedGameFixture({ id: 'a', code: 'AAAAAA' })], next: 'c2' },
      c2: { games: [finishedGameFixture({ id: 'b', code: 'BBBBBB' })], next: 'c3' },
      c3: { games: [finishedGameFixture({ id: 'c', code: 'CCCCCC' })], next: null },
    }
    const urls = serve((url) => ({ status: 200, body: pages[url.searchParams.get('cursor') ?? ''] }))
    render(<FinishedPage />)
    await screen.findByText('AAAAAA')
    const pager = screen.getByRole('navigation', { name: 'Finished games pages' })
    expect(within(pager).getByRole('button', { name: '← Newer' })).toBeDisabled()
    await user.click(within(pager).getByRole('button', { name: 'Older →' }))
    await screen.findByText('BBBBBB')
    await user.click(within(pager).getByRole('button', { name: 'Older →' }))
    await screen.findByText('CCCCCC')
    expect(within(pager).getByRole('button', { name: 'Older →' })).toBeDisabled()
    expect(within(pager).getByText('page 3')).toBeInTheDocument()
    await user.click(within(pager).getByRole('button', { name: '← Newer' }))
    await screen.findByText('BBBBBB')
    expect(codes()).toEqual(['BBBBBB'])
    expect(urls.map((u) => u.searchParams.get('cursor'))).toEqual([null, 'c2', 'c3', 'c2'])
  })
})
