/** Previous and Next for a keyset-paged list. It shows the page's number, and whether either way goes anywhere. */
export function Pager({
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  label,
}: {
  readonly page: number
  readonly hasPrevious: boolean
  readonly hasNext: boolean
  readonly onPrevious: () => void
  readonly onNext: () => void
  readonly label: string
}) {
  if (!hasPrevious && !hasNext) return null
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button small" disabled={!hasPrevious} onClick={onPrevious}>
        ← Newer
      </button>
      <span className="muted">page {page}</span>
      <button type="button" className="button small" disabled={!hasNext} onClick={onNext}>
        Older →
      </button>
    </nav>
  )
}
