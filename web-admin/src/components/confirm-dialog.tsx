import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { describeError } from '../lib/api-client'

export interface ConfirmDialogProps {
  readonly title: string
  readonly children: ReactNode
  /** The confirm button's text, naming the action: "Kick Ann", "Close room". */
  readonly confirmLabel: string
  /** Runs the action. The dialog stays open, and shows that it is busy, until the action settles. */
  readonly onConfirm: () => Promise<void>
  readonly onClose: () => void
}

/**
 * Asks before a destructive action. Focus starts on Cancel so a stray Enter does nothing;
 * Escape cancels. A failure is shown in the dialog, which stays open for another try.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const titleId = useId()
  const cancelRef = useRef<HTMLButtonElement>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    cancelRef.current?.focus()
    return () => previous?.focus?.()
  }, [])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !busy) onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [busy, onClose])

  const confirm = async () => {
    setBusy(true)
    setError(null)
    try {
      await onConfirm()
      onClose()
    } catch (err) {
      setError(describeError(err))
      setBusy(false)
    }
  }

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && !busy && onClose()}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        {error && (
          <p className="dialog-error" role="alert">
            Failed: {error}
          </p>
        )}
        <div className="dialog-actions">
          <button ref={cancelRef} type="button" className="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={() => void confirm()} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  )
}
