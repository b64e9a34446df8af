import { useState } from 'react'
import { choicesOf, type TableAction, type TableView } from '../../../lib/table-view'

/**
 * The human's buttons. Only what the rules allow now is enabled, and the amount starts at the
 * minimum raise. The page keys this bar by the betting situation, so a new turn starts the amount
 * field afresh.
 */
export function ActionBar({
  view,
  busy,
  onAct,
}: {
  readonly view: TableView
  readonly busy: boolean
  readonly onAct: (action: TableAction, amount?: number) => void
}) {
  const c = choicesOf(view)
  const [amount, setAmount] = useState(String(c.minTotal || ''))
  const off = busy || !c.myTurn
  const sized = () => {
    const n = Number(amount)
    onAct(c.canBet ? 'bet' : 'raise', Number.isInteger(n) ? n : undefined)
  }
  return (
    <section className="action-bar" aria-label="Your move" data-moves={view.moves} data-ready={off ? 'false' : 'true'}>
      <div className="action-buttons">
        <button type="button" className="big-button" disabled={off} onClick={() => onAct('fold')}>
          Fold
        </button>
        <button type="button" className="big-button" disabled={off || !c.canCheck} onClick={() => onAct('check')}>
          Check
        </button>
        <button type="button" className="big-button" disabled={off || !c.canCall} onClick={() => onAct('call')}>
          Call
        </button>
      </div>
      <div className="action-sizing">
        <label className="field">
          <span>Amount</span>
          <input
            className="input"
            type="number"
            inputMode="numeric"
            min={c.minTotal}
            max={c.maxTotal}
            step={1}
            value={amount}
            disabled={off || !(c.canBet || c.canRaise)}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
        <button type="button" className="big-button" disabled={off || !c.canBet} onClick={sized}>
          Bet
        </button>
        <button type="button" className="big-button" disabled={off || !c.canRaise} onClick={sized}>
          Raise
        </button>
      </div>
      {c.myTurn && c.toCall > 0 && <p className="muted">{c.toCall} to call</p>}
    </section>
  )
}
