import { useState, type FormEvent } from 'react'
import { NO_SEARCH, type FinishedSearch } from '../api/finished-types'

/** Searches by a room code and a range of days. Submitting starts again at the first page. */
export function FinishedSearchForm({
  search,
  onSearch,
}: {
  readonly search: FinishedSearch
  readonly onSearch: (search: FinishedSearch) => void
}) {
  const [draft, setDraft] = useState(search)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch({ code: draft.code.trim(), from: draft.from, to: draft.to })
  }
  const searching = search.code !== '' || search.from !== '' || search.to !== ''
  return (
    <form className="finished-search" role="search" aria-label="Search finished games" onSubmit={submit}>
      <label>
        <span className="muted">Code</span>
        <input
          type="search"
          className="filter"
          placeholder="K7QMPD"
          value={draft.code}
          maxLength={12}
          onChange={(e) => setDraft({ ...draft, code: e.target.value })}
          spellCheck={false}
          autoCapitalize="characters"
        />
      </label>
      <label>
        <span className="muted">From</span>
        <input type="date" className="date-input" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
      </label>
      <label>
        <span className="muted">To</span>
        <input type="date" className="date-input" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
      </label>
      <button type="submit" className="button small primary">
        Search
      </button>
      {searching && (
        <button
          type="button"
          className="button small ghost"
          onClick={() => {
            setDraft(NO_SEARCH)
            onSearch(NO_SEARCH)
          }}
        >
          Clear
        </button>
      )}
    </form>
  )
}
