import type { TableView } from '../../../lib/table-view'
import { ActionClock } from './action-clock'
import { CardRow } from './playing-card'

/**
 * The seats round the table. Another seat never shows a card here, because its cards are only
 * ever known after a showdown, and the hand's result shows them.
 */
export function SeatList({ view, paused = false }: { readonly view: TableView; readonly paused?: boolean }) {
  const hand = view.hand
  return (
    <ol className="table-seats" aria-label="Seats">
      {view.seats.map((s) => {
        const mine = s.seat === view.mySeat
        const toAct = hand?.toAct === s.seat
        const classes = ['table-seat', mine ? 'mine' : '', toAct ? 'to-act' : '', s.folded ? 'folded' : ''].filter(Boolean).join(' ')
        return (
          <li key={s.seat} className={classes} data-testid={mine ? 'my-seat' : 'other-seat'} aria-current={toAct ? 'true' : undefined}>
            <span className="seat-name">
              {s.name}
              {hand?.button === s.seat && (
                <span className="dealer-button" title="Dealer button">
                  D
                </span>
              )}
            </span>
            <span className="seat-stack">{s.stack}</span>
            <span className="seat-state">
              {s.committed > 0 && <span className="seat-committed">bet {s.committed}</span>}
              {s.folded && <span className="seat-tag">folded</span>}
              {s.allIn && <span className="seat-tag">all-in</span>}
              {toAct && hand?.deadline != null && <ActionClock deadline={hand.deadline} paused={paused} />}
            </span>
            {mine && view.yourCards && <CardRow cards={view.yourCards} label="Your cards" />}
          </li>
        )
      })}
    </ol>
  )
}
