import type { Notice } from '../hooks/use-notices'

export function NoticeList({ notices, dismiss }: { readonly notices: readonly Notice[]; readonly dismiss: (id: number) => void }) {
  // The list is always rendered, so that screen readers hear what is added to it.
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.tone}`}>
          <span>{n.text}</span>
          <button type="button" className="notice-dismiss" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  )
}
