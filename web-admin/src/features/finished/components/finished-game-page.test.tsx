import { render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { session } from '../../../lib/session'
import { finishedDetailFixture } from '../finished-fixture'
import { FinishedGamePage } from './finished-game-page'

function serve(status: number, body: unknown) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url)
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
    }),
  )
  return urls
}

const stat = (label: string) => screen.getByRole('group', { name: label })

describe(FinishedGamePage.name, () => {
  beforeEach(() => session.signedIn())
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('shows the game’s line and its results with the results page’s standings and questions', async () => {
    const detail = finishedDetailFixture()
    const urls = serve(200, detail)
    render(<FinishedGamePage id={detail.id} />)
    // The page says "Finished game" while it loads, so the test waits for the loaded page's heading.
    expect(await screen.findByRole('heading', { level: 1, name: /K7QMPD/ })).toHaveTextContent('Room K7QMPD, game 2')
    expect(urls).toEqual([`/admin/api/finished/${detail.id}`])
    expect(stat('Host')).toHaveTextContent('Hugo')
    expect(stat('Players')).toHaveTextContent('3')
    expect(stat('Winner')).toHaveTextContent('Ann')
    expect(stat('Finished')).toHaveTextContent('lasted 4 min 05 s')
    const standings = screen.getByRole('region', { name: 'Standings' })
    expect(
      within(standings)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.querySelector('th')?.textContent),
    ).toEqual(['Ann', 'Cy', 'Bob'])
    expect(document.querySelectorAll('[data-question-index]')).toHaveLength(detail.results!.questions.length)
    expect(document.querySelector('[data-callout="hardest"]')).toHaveTextContent('Question 3')
  })

  it('links the public results page while it answers, and says when it expired', async () => {
    const detail = finishedDetailFixture()
    serve(200, { ...detail, publicUntil: Date.now() + 86_400_000 })
    const { unmount } = render(<FinishedGamePage id={detail.id} />)
    expect(await screen.findByRole('link', { name: 'results page' })).toHaveAttribute('href', `/results/${detail.resultsId}`)
    expect(screen.getByRole('link', { name: 'CSV' })).toHaveAttribute('href', `/api/results/${detail.resultsId}.csv`)
    unmount()
    serve(200, detail)
    render(<FinishedGamePage id={detail.id} />)
    expect(await screen.findByText(/The public results link expired/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'results page' })).not.toBeInTheDocument()
  })

  it('shows a game without results by its line alone', async () => {
    serve(200, finishedDetailFixture({ game: 'tictactoe', hostName: null, results: null }))
    render(<FinishedGamePage id="g" />)
    expect(await screen.findByText('This game reports no results beyond its line.')).toBeInTheDocument()
    expect(stat('Host')).toHaveTextContent('—')
  })

  it('says so for an id no finished game has', async () => {
    serve(404, { statusCode: 404, code: 'finished_game_not_found', message: 'no' })
    render(<FinishedGamePage id="nope" />)
    expect(await screen.findByRole('alert')).toHaveTextContent('No finished game has this id')
  })
})
