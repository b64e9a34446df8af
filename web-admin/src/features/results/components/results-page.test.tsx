import { render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RESULTS } from '../results-fixture'
import { ResultsPage } from './results-page'

/** A fetch that answers every request with one status and body, and keeps the URLs asked for. */
function serve(status: number, body: unknown) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url)
      return new Response(JSON.stringify(body), { status })
    }),
  )
  return urls
}

const rowsOf = (table: HTMLElement) =>
  [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent))
const figure = (region: HTMLElement, name: string) => region.querySelector(`[data-figure="${name}"]`)?.textContent

describe(ResultsPage.name, () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('shows the room, the game, when it finished and the CSV link, from GET /api/results/{id}', async () => {
    const urls = serve(200, RESULTS)
    render(<ResultsPage id="r-abc" />)
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Results: room K7QMPD, game 2')
    expect(urls).toEqual(['/api/results/r-abc'])
    const [finished, until] = document.querySelectorAll('time')
    expect(finished.getAttribute('datetime')).toBe('2026-03-14T09:30:00.000Z')
    // The server says until when the link answers (its results window); the page has no fixed text for it.
    expect(until.getAttribute('datetime')).toBe('2026-04-13T09:30:00.000Z')
    expect(until.parentElement).toHaveTextContent('can read it until 13 Apr 2026')
    const csv = screen.getByRole('link', { name: 'Download CSV' })
    expect(csv).toHaveAttribute('href', '/api/results/r-abc.csv')
    expect(csv).toHaveAttribute('download')
  })

  it('lists the standings: rank, name, score and right answers', async () => {
    serve(200, RESULTS)
    render(<ResultsPage id="r-abc" />)
    const table = await screen.findByRole('table', { name: 'Final standings' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Rank', 'Player', 'Score', 'Right answers'])
    expect(rowsOf(table)).toEqual([
      ['1', 'Ann', '1600', '2'],
      ['2', 'Cy', '800', '1'],
      ['3', 'Bob', '0', '0'],
    ])
  })

  it('shows each question with its right choice, right-answer rate, mean time and every player’s answer', async () => {
    serve(200, RESULTS)
    render(<ResultsPage id="r-abc" />)
    const first = await screen.findByRole('region', { name: 'Question 1 Which planet is called the red planet?' })
    expect([figure(first, 'correct'), figure(first, 'right-rate'), figure(first, 'mean-ms')]).toEqual(['B: Mars', '67%', '2.10 s'])
    expect(rowsOf(within(first).getByRole('table', { name: 'Answers to question 1' }))).toEqual([
      ['Ann', 'B: Mars', 'Right', '900', '1.20 s'],
      ['Bob', 'A: Venus', 'Wrong', '0', '3.00 s'],
      ['Cy', 'B: Mars', 'Right', '800', '2.10 s'],
    ])
    // Cy is not among question 2's answers, and a row says so.
    const second = screen.getByRole('region', { name: 'Question 2 How many legs has a spider?' })
    expect(figure(second, 'right-rate')).toBe('33%')
    expect(rowsOf(within(second).getByRole('table', { name: 'Answers to question 2' }))[2]).toEqual(['Cy', 'No answer', '—', '0', '—'])
    // Without the choices' texts, the choices are named by their letter.
    const third = screen.getByRole('region', { name: 'Question 3 Which ocean is the largest?' })
    expect([figure(third, 'correct'), figure(third, 'right-rate'), figure(third, 'mean-ms')]).toEqual(['C', '0%', '1.25 s'])
    expect(rowsOf(within(third).getByRole('table', { name: 'Answers to question 3' }))).toEqual([
      ['Ann', 'A', 'Wrong', '0', '1.00 s'],
      ['Bob', 'B', 'Wrong', '0', '1.50 s'],
      ['Cy', 'No answer', '—', '0', '—'],
    ])
  })

  it('calls out the hardest question (lowest right rate) and the slowest (highest mean time)', async () => {
    serve(200, RESULTS)
    render(<ResultsPage id="r-abc" />)
    const callouts = await screen.findByRole('region', { name: 'Hardest and slowest' })
    expect(callouts.querySelector('[data-callout="hardest"]')).toHaveTextContent(
      'Hardest questionQuestion 3: Which ocean is the largest? (0% answered right)',
    )
    expect(callouts.querySelector('[data-callout="slowest"]')).toHaveTextContent(
      'Slowest questionQuestion 2: How many legs has a spider? (4.50 s on average)',
    )
    const tags = (n: number, text: string) => within(screen.getByRole('region', { name: new RegExp(`^Question ${n} `) })).queryByText(text)
    expect([tags(1, 'Hardest'), tags(1, 'Slowest'), tags(2, 'Hardest'), tags(3, 'Slowest')]).toEqual([null, null, null, null])
    expect(tags(2, 'Slowest')).toBeInTheDocument()
    expect(tags(3, 'Hardest')).toBeInTheDocument()
  })

  it('says results that are gone are past their window, as the server names it, on a 404', async () => {
    serve(404, { statusCode: 404, code: 'results_not_found', message: 'no results have id old (results are kept 45 days)' })
    render(<ResultsPage id="old" />)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByRole('heading', { name: 'Results not available' })).toBeInTheDocument()
    expect(alert).toHaveTextContent('These results are not available')
    expect(alert).toHaveTextContent('results are kept 45 days')
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull()
  })

  it('says what went wrong on any other failure, without claiming the results are gone', async () => {
    serve(503, { statusCode: 503, code: 'unavailable', message: 'the database is not answering' })
    render(<ResultsPage id="r-abc" />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('the database is not answering')
    expect(alert).not.toHaveTextContent('These results are not available')
  })
})
