import { cardText, isRed } from '../../../lib/table-view'

/** One face-up card. `data-card` keeps the wire spelling ("As") for whoever reads the DOM. */
export function PlayingCard({ card }: { readonly card: string }) {
  return (
    <span className={isRed(card) ? 'playing-card red' : 'playing-card'} data-card={card}>
      {cardText(card)}
    </span>
  )
}

export function CardRow({ cards, label }: { readonly cards: readonly string[]; readonly label: string }) {
  return (
    <span className="card-row" aria-label={label}>
      {cards.map((c) => (
        <PlayingCard key={c} card={c} />
      ))}
    </span>
  )
}
