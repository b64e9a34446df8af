import type { RoomView } from '../../../lib/room-view'

/** Says in words what the host's Next does now: close the open question, open the next, or end the game. */
function nextStep(view: RoomView): string {
  if (view.phase === 'question') return 'Close this question now'
  const total = view.revealed?.total ?? (view.reveal && 'total' in view.reveal ? Number(view.reveal.total) : undefined)
  if (view.reveal && total !== undefined && view.reveal.index + 1 >= total) return 'End the game and show the podium'
  return 'Open the next question'
}

export interface NextButtonProps {
  readonly view: RoomView
  readonly disabled: boolean
  readonly onNext: () => void
}

/** The host's big Next button, for a room at the host's pace. The presenter's keys do the same. */
export function NextButton({ view, disabled, onNext }: NextButtonProps) {
  return (
    <div className="next-control">
      <button type="button" className="big-button primary next-button" onClick={onNext} disabled={disabled} aria-describedby="next-hint">
        Next
      </button>
      <p id="next-hint" className="hint">
        {nextStep(view)}. Keys: Right arrow, Page Down or Space.
      </p>
    </div>
  )
}
