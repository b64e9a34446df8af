import { useState } from 'react'
import type { CommandArgs } from '@game-rooms/client'
import type { CardsCommands } from '@game-rooms/client/cards'
import { ConnectionBanner } from '../../../components/connection-banner'
import { Link } from '../../../components/link'
import type { TableAction } from '../../../lib/table-view'
import { adoptTableToken, tableKey, useTable } from '../api/use-table'
import { ActionBar } from './action-bar'
import { HandResultCard } from './hand-result'
import { CardRow } from './playing-card'
import { SeatList } from './seat-list'

/** The page at `/table/{code}`: the human's seat at a card practice table, on a phone. */
export function TablePage({ code }: { readonly code: string }) {
  const key = tableKey(code)
  // Before the first render connects, a `?token=` link is remembered and leaves the address bar.
  const [hasToken] = useState(() => {
    adoptTableToken(code)
    return window.sessionStorage.getItem(key) !== null
  })
  const { view, status, paused, send, update } = useTable(hasToken ? key : null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  if (!hasToken) {
    return (
      <main className="people-page table-page">
        <div className="card stack" role="status">
          <h1 className="title">No seat at this table</h1>
          <p>Open a practice table from the start page; its link is only good in the tab that opened it.</p>
          <Link to="/" className="big-button">
            Start page
          </Link>
        </div>
      </main>
    )
  }
  if (status.state === 'ended' || view?.phase === 'closed') {
    return (
      <main className="people-page table-page">
        <div className="card stack" role="status">
          <h1 className="title">{tableEnded(status.closeCode, view?.closedReason)}</h1>
          <Link to="/" className="big-button">
            Start page
          </Link>
        </div>
      </main>
    )
  }
  if (!view) {
    return (
      <main className="people-page table-page">
        <ConnectionBanner status={status} />
        <p className="muted center">Connecting…</p>
      </main>
    )
  }

  const command = async <K extends keyof CardsCommands & string>(
    type: K,
    ...args: CommandArgs<CardsCommands, K>
  ): Promise<Record<string, unknown> | undefined> => {
    setBusy(true)
    setError(null)
    try {
      const reply = await send(type, ...args)
      if (reply.status === 200) return (reply.data ?? {}) as Record<string, unknown>
      setError(reply.error?.message ?? 'The table refused that.')
    } catch {
      // The socket went down. The banner says so, and the client resends on reconnect.
    } finally {
      setBusy(false)
    }
    return undefined
  }
  const act = (action: TableAction, amount?: number) => void command('table.act', amount === undefined ? { action } : { action, amount })
  const rebuy = async () => {
    const done = await command('table.rebuy')
    const stack = done?.stack
    if (typeof stack === 'number')
      update((v) => ({ ...v, phase: 'between', seats: v.seats.map((s) => (s.seat === v.mySeat ? { ...s, stack } : s)) }))
  }
  const me = view.seats.find((s) => s.seat === view.mySeat)
  const hand = view.hand

  return (
    <div className="play-screen table-screen">
      <ConnectionBanner status={status} paused={paused} />
      <header className="play-header">
        <span className="mono">{view.code}</span>
        <span className="play-me">
          Blinds {view.rules.smallBlind}/{view.rules.bigBlind}
        </span>
      </header>
      <main className="play-main stack">
        <section className="table-felt" aria-label="Table">
          <p className="table-pot">
            {hand ? (
              <>
                Hand {hand.number} · {hand.street} · Pot <strong data-testid="pot">{hand.pot}</strong>
              </>
            ) : (
              'Between hands'
            )}
          </p>
          {hand && hand.board.length > 0 && <CardRow cards={hand.board} label="Board" />}
        </section>
        <SeatList view={view} paused={paused} />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {hand && <ActionBar key={`${hand.number}-${hand.street}-${hand.currentBet}-${hand.toAct}`} view={view} busy={busy} onAct={act} />}
        {!hand && me && me.stack === 0 && (
          <button type="button" className="big-button primary" disabled={busy} onClick={() => void rebuy()}>
            Rebuy
          </button>
        )}
        {view.result && <HandResultCard result={view.result} view={view} />}
        {view.standings && (
          <section className="card stack" aria-label="Standings">
            <h2>Standings</h2>
            <ol className="plain-list">
              {[...view.standings]
                .sort((a, b) => b.net - a.net)
                .map((s) => (
                  <li key={s.seat} className={s.seat === view.mySeat ? 'mine' : undefined}>
                    {s.name}: {s.stack} ({s.net >= 0 ? '+' : ''}
                    {s.net}) · {s.hands} {s.hands === 1 ? 'hand' : 'hands'}
                  </li>
                ))}
            </ol>
          </section>
        )}
      </main>
    </div>
  )
}

function tableEnded(closeCode: number | undefined, closedReason: string | undefined): string {
  if (closedReason === 'expired') return 'The table expired.'
  // A newer socket of the same seat pushed this one out. Reloading this page takes the seat back.
  if (closeCode === 4010) return 'Your seat was opened on another screen. Reload this page to play here again.'
  return 'The table is closed.'
}
