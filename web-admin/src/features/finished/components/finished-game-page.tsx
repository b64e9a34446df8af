import { Link } from '../../../components/link'
import { Panel } from '../../../components/panel'
import { Stat } from '../../../components/stat'
import { DASH } from '../../../lib/format'
import { finishedGamePath, useAdminGet } from '../api/get-finished'
import { useNow } from '../../../hooks/use-now'
import type { FinishedGameDetail } from '../api/finished-types'
import { hardestQuestion, slowestQuestion } from '../../results/utils/results-summary'
import { QuestionResults } from '../../results/components/question-results'
import { ResultsCallouts } from '../../results/components/results-callouts'
import { StandingsTable } from '../../results/components/standings-table'
import { resultsCsvPath, resultsPagePath } from '../../results/api/get-results'
import { formatDuration, formatWhen } from '../utils/format-finished'
import './finished.css'

/** Shows one finished game: its line in the list, and its results as the public results page shows them. */
export function FinishedGamePage({ id }: { readonly id: string }) {
  const loaded = useAdminGet<FinishedGameDetail>(finishedGamePath(id))
  const now = useNow(60_000)
  const header = (
    <div className="room-header">
      <Link to="/finished" className="back">
        ← Finished games
      </Link>
      <h1 className="room-title">{loaded.state === 'ready' ? <GameTitle game={loaded.value} /> : 'Finished game'}</h1>
    </div>
  )
  if (loaded.state !== 'ready') {
    return (
      <div className="page">
        {header}
        {loaded.state === 'loading' ? (
          <p className="loading">Loading the finished game…</p>
        ) : (
          <p className="page-error" role="alert">
            {loaded.status === 404
              ? 'No finished game has this id: it was never recorded, or its record is gone.'
              : `Could not load the finished game: ${loaded.message}`}
          </p>
        )}
      </div>
    )
  }
  const game = loaded.value
  const publicOpen = now < game.publicUntil
  return (
    <div className="page finished-detail">
      {header}
      <div className="stats">
        <Stat label="Game" value={game.game} detail={`game ${game.number} of its room`} />
        <Stat label="Host" value={game.hostName ?? DASH} />
        <Stat label="Players" value={String(game.players.count)} detail={game.players.names.join(', ') || undefined} />
        <Stat label="Winner" value={game.winner ?? DASH} />
        <Stat
          label="Started"
          value={formatWhen(game.startedAt)}
          detail={
            game.startedFrom === 'summary'
              ? 'as the game reported it'
              : game.startedFrom === 'previous_game'
                ? 'the previous game’s end'
                : 'the room’s opening'
          }
        />
        <Stat label="Finished" value={formatWhen(game.finishedAt)} detail={`lasted ${formatDuration(game.finishedAt - game.startedAt)}`} />
      </div>
      <p className="muted">
        {publicOpen ? (
          <>
            The public results link answers until {formatWhen(game.publicUntil)}: <a href={resultsPagePath(game.resultsId)}>results page</a>{' '}
            ·{' '}
            <a href={resultsCsvPath(game.resultsId)} download>
              CSV
            </a>
          </>
        ) : (
          <>The public results link expired on {formatWhen(game.publicUntil)}; operators still read the record here.</>
        )}
      </p>
      {game.results ? <Results results={game.results} /> : <p className="empty">This game reports no results beyond its line.</p>}
    </div>
  )
}

function GameTitle({ game }: { readonly game: FinishedGameDetail }) {
  return (
    <>
      Room <span className="room-code">{game.code}</span>, game {game.number}
    </>
  )
}

function Results({ results }: { readonly results: NonNullable<FinishedGameDetail['results']> }) {
  const hardest = hardestQuestion(results.questions)
  const slowest = slowestQuestion(results.questions)
  return (
    <>
      <Panel title="Standings">
        <StandingsTable standings={results.standings} />
      </Panel>
      <ResultsCallouts hardest={hardest} slowest={slowest} />
      <Panel title="Questions">
        <div className="stack">
          {results.questions.map((q) => (
            <QuestionResults key={q.index} question={q} standings={results.standings} hardest={q === hardest} slowest={q === slowest} />
          ))}
        </div>
      </Panel>
    </>
  )
}
