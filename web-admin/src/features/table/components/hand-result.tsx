import type { HandResult, TableView } from '../../../lib/table-view'
import { CardRow } from './playing-card'

/** Shows how the last hand ended: who won what, and the cards shown at the showdown (never a folded hand's). */
export function HandResultCard({ result, view }: { readonly result: HandResult; readonly view: TableView }) {
  const nameOf = (seat: number) => (seat === view.mySeat ? 'You' : (view.seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat}`))
  return (
    <section className="card stack hand-result" aria-label="Hand result" data-testid="hand-result">
      <h2>Hand {result.number} finished</h2>
      {result.board.length > 0 && <CardRow cards={result.board} label="Final board" />}
      <ul className="plain-list">
        {result.pots.flatMap((pot, i) =>
          pot.winners.map((w) => (
            <li key={`${i}-${w.seat}`}>
              {nameOf(w.seat)} won {w.amount}
            </li>
          )),
        )}
      </ul>
      {result.shown.length > 0 && (
        <ul className="plain-list shown-hands">
          {result.shown.map((s) => (
            <li key={s.seat}>
              {nameOf(s.seat)}: <CardRow cards={s.cards} label={`${nameOf(s.seat)}’s cards`} /> {s.rank}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
