import { useState } from 'react'
import { Panel } from '../../../components/panel'
import { NO_SEARCH, type FinishedPage as Page, type FinishedSearch } from '../api/finished-types'
import { finishedPath, useAdminGet } from '../api/get-finished'
import { currentCursor, FIRST_PAGE, nextPage, pageNumber, previousPage, type PageTrail } from '../utils/pages'
import { FinishedSearchForm } from './finished-search'
import { FinishedTable } from './finished-table'
import { Pager } from './pager'
import './finished.css'

/** Lists every finished game the database holds, newest first, a page at a time, searchable by code and days. */
export function FinishedPage() {
  const [search, setSearch] = useState<FinishedSearch>(NO_SEARCH)
  const [trail, setTrail] = useState<PageTrail>(FIRST_PAGE)
  const loaded = useAdminGet<Page>(finishedPath(search, currentCursor(trail)))
  const searching = search.code !== '' || search.from !== '' || search.to !== ''

  return (
    <div className="page">
      <Panel title="Finished games" aside={<FinishedSearchForm search={search} onSearch={(s) => (setSearch(s), setTrail(FIRST_PAGE))} />}>
        {loaded.state === 'loading' && <p className="loading">Loading finished games…</p>}
        {loaded.state === 'failed' && (
          <p className="page-error" role="alert">
            Could not load the finished games: {loaded.message}
          </p>
        )}
        {loaded.state === 'ready' &&
          (loaded.value.games.length === 0 ? (
            <p className="empty">{searching ? 'No finished game matches this search.' : 'No game has finished yet.'}</p>
          ) : (
            <FinishedTable games={loaded.value.games} />
          ))}
        <Pager
          label="Finished games pages"
          page={pageNumber(trail)}
          hasPrevious={pageNumber(trail) > 1}
          hasNext={loaded.state === 'ready' && loaded.value.next !== null}
          onPrevious={() => setTrail(previousPage(trail))}
          onNext={() => loaded.state === 'ready' && loaded.value.next && setTrail(nextPage(trail, loaded.value.next))}
        />
        <p className="legend-line muted">
          Newest first. Dates are whole days in UTC. A game’s public results link answers for the results window (30 days unless the
          operator set another); here it stays while its record exists.
        </p>
      </Panel>
    </div>
  )
}
