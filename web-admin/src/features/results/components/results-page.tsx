import { useEffect, useState } from 'react'
import { Link } from '../../../components/link'
import { explain, GameApiError } from '../../../lib/game-api'
import { getResults, resultsCsvPath } from '../api/get-results'
import type { GameResults } from '../api/results-types'
import { hardestQuestion, slowestQuestion } from '../utils/results-summary'
import { QuestionResults } from './question-results'
import { ResultsCallouts } from './results-callouts'
import { StandingsTable } from './standings-table'
import './results-page.css'

type Loaded =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly results: GameResults }
  /** The server answered 404: the results are past the results window, or never existed. The server's message names the window. */
  | { readonly state: 'gone'; readonly message: string }
  | { readonly state: 'failed'; readonly message: string }

/** The page at `/results/{resultsId}`: one finished game's results, for anyone with the link. */
export function ResultsPage({ id }: { readonly id: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' })

  useEffect(() => {
    let live = true
    getResults(id).then(
      (results) => live && setLoaded({ state: 'ready', results }),
      (err) => {
        if (!live) return
        setLoaded(
          err instanceof GameApiError && err.status === 404
            ? { state: 'gone', message: explain(err) }
            : { state: 'failed', message: explain(err) },
        )
      },
    )
    return () => {
      live = false
    }
  }, [id])

  if (loaded.state === 'loading') {
    return (
      <main className="people-page results-page">
        <p className="muted center" role="status">
          Loading the results…
        </p>
      </main>
    )
  }
  if (loaded.state !== 'ready') {
    return (
      <main className="people-page">
        <div className="card stack" role="alert">
          <h1 className="title">{loaded.state === 'gone' ? 'Results not available' : 'These results cannot be opened'}</h1>
          {loaded.state === 'gone' && (
            <p>These results are not available: a game’s results are kept for a while after it ends, and then removed.</p>
          )}
          <p>{loaded.message}</p>
          <Link to="/host" className="big-button">
            Host a game
          </Link>
        </div>
      </main>
    )
  }

  const { results } = loaded
  const finished = new Date(results.finishedAt)
  const until = new Date(results.readableUntil)
  const hardest = hardestQuestion(results.questions)
  const slowest = slowestQuestion(results.questions)
  return (
    <main className="people-page results-page">
      <header className="stack results-head">
        <h1 className="title">
          Results: room <span className="mono">{results.code}</span>, game {results.number}
        </h1>
        <p className="muted">
          Finished{' '}
          <time dateTime={finished.toISOString()}>{finished.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>.
          Anyone with this page’s link can read it until{' '}
          <time dateTime={until.toISOString()}>{until.toLocaleDateString('en-GB', { dateStyle: 'medium' })}</time>.
        </p>
        <p>
          <a className="big-button results-download" href={resultsCsvPath(id)} download>
            Download CSV
          </a>
        </p>
      </header>
      <section className="card stack" aria-labelledby="results-standings">
        <h2 id="results-standings">Standings</h2>
        <StandingsTable standings={results.standings} />
      </section>
      <ResultsCallouts hardest={hardest} slowest={slowest} />
      <section className="stack" aria-labelledby="results-questions">
        <h2 id="results-questions">Questions</h2>
        {results.questions.map((q) => (
          <QuestionResults key={q.index} question={q} standings={results.standings} hardest={q === hardest} slowest={q === slowest} />
        ))}
      </section>
    </main>
  )
}
