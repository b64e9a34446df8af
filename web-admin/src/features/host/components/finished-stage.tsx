import { Countdown } from '../../../components/countdown'
import { Link } from '../../../components/link'
import { StandingsList } from '../../../components/standings-list'
import type { RoomView } from '../../../lib/room-view'
import { resultsCsvPath, resultsPagePath } from '../../results/api/get-results'
import { Podium } from './podium'

/** Shows the podium, the final standings, the results to take away (when the server names them), the rematch vote and its outcome. */
export function FinishedStage({ view, paused = false }: { readonly view: RoomView; readonly paused?: boolean }) {
  const names = new Map((view.standings ?? []).map((s) => [s.playerId, s.name]))
  const decided = view.rematch?.decided
  return (
    <section className="stage finished-stage" aria-label="Final standings">
      <div className="stage-head">
        <span className="stage-kicker">Game over</span>
        {view.rematch && !decided && (
          <Countdown closesAt={view.rematch.closesAt} clockOffsetMs={view.clockOffsetMs} seconds={30} paused={paused} />
        )}
      </div>
      <Podium standings={view.standings ?? []} />
      <h2 className="standings-title">Standings</h2>
      <StandingsList standings={view.standings ?? []} className="big" />
      {view.resultsId && (
        <p className="results-links">
          <Link to={resultsPagePath(view.resultsId)} className="big-button">
            Results page
          </Link>
          <a href={resultsCsvPath(view.resultsId)} className="big-button ghost" download>
            Download results (CSV)
          </a>
        </p>
      )}
      <p className="rematch-outcome" role="status">
        {!view.rematch && 'Waiting for the rematch vote…'}
        {view.rematch && !decided && 'Players are voting on a rematch…'}
        {decided?.accepted && `Rematch accepted: ${decided.playerIds.map((id) => names.get(id) ?? id).join(', ')}`}
        {decided && !decided.accepted && 'No rematch this time.'}
      </p>
    </section>
  )
}
