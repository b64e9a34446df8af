import { useRef, useState } from 'react'
import { ConnectionBanner } from '../../../components/connection-banner'
import { Link } from '../../../components/link'
import { explain } from '../../../lib/game-api'
import type { SeatView } from '../../../lib/trivia-events'
import { hostPaced } from '../../../lib/room-view'
import { seatKey, useRoom } from '../../../lib/use-room'
import { closeRoom } from '../api/close-room'
import { usePresenterKeys } from '../hooks/use-presenter-keys'
import { FinishedStage } from './finished-stage'
import { JoinPanel } from './join-panel'
import { NextButton } from './next-button'
import { PlayersPanel } from './players-panel'
import { QuestionStage } from './question-stage'
import { RevealStage } from './reveal-stage'

/** The page at `/host/{code}`: the presenter screen of a room this tab opened. The room's token is in this tab's session. */
export function HostRoomPage({ code }: { readonly code: string }) {
  const key = seatKey('host', code)
  const [hasToken] = useState(() => window.sessionStorage.getItem(key) !== null)
  const { view, status, paused, send } = useRoom(hasToken ? key : null)
  const [notice, setNotice] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // Only one press of Next (or of the clicker in the lobby) is handled at a time, so that a double
  // press cannot skip a question. React draws the new state only after a press, so a quick second
  // press would still find the old one; the ref is set at once, and catches it.
  const [moving, setMoving] = useState(false)
  const pressed = useRef(false)
  const byHost = view !== undefined && hostPaced(view)
  const canStart = view?.phase === 'lobby' && view.players.length > 0
  const canMove = byHost && (view.phase === 'question' || view.phase === 'reveal') && !paused

  const run = async (what: string, action: () => Promise<{ status: number; error?: { message: string } } | void>) => {
    setBusy(true)
    setNotice(null)
    try {
      const reply = await action()
      if (reply && reply.status !== 200) setNotice(`${what}: ${reply.error?.message ?? `status ${reply.status}`}`)
    } catch (err) {
      setNotice(`${what}: ${explain(err)}`)
    } finally {
      setBusy(false)
    }
  }
  const start = () => run('Could not start', () => send('room.start'))
  const once = async (action: () => Promise<void>) => {
    if (pressed.current) return
    pressed.current = true
    setMoving(true)
    try {
      await action()
    } finally {
      pressed.current = false
      setMoving(false)
    }
  }
  const next = () => once(() => run('Could not move on', () => send('room.next')))
  // In the lobby, the presenter's clicker starts the game. After that, each press is Next.
  usePresenterKeys(byHost && (canStart || canMove), () => void (view?.phase === 'lobby' ? once(start) : next()))

  if (!hasToken || status.state === 'ended') {
    const closed = status.closeCode === 4004 || view?.phase === 'closed'
    return (
      <main className="people-page">
        <div className="card stack">
          <h1 className="title">{closed ? 'Room closed' : `Room ${code}`}</h1>
          <p>
            {closed
              ? 'This room is closed. Thanks for hosting.'
              : 'This screen is not the host of that room (the host’s key stays in the browser tab that opened it).'}
          </p>
          <Link to="/host" className="big-button primary">
            Host another game
          </Link>
        </div>
      </main>
    )
  }
  if (!view) {
    return (
      <main className="people-page">
        <ConnectionBanner status={status} />
        <p className="muted center">Connecting to room {code}…</p>
      </main>
    )
  }

  const kick = (player: SeatView) => run(`Could not kick ${player.name}`, () => send('room.kick', { playerId: player.id }))
  const close = () => run('Could not close the room', () => closeRoom(code, window.sessionStorage.getItem(key) ?? ''))

  return (
    <div className="host-screen">
      <ConnectionBanner status={status} paused={paused} />
      <main className="host-main">
        {view.phase === 'lobby' && (
          <section className="stage lobby-stage" aria-label="Lobby">
            <p className="stage-kicker">{view.hostName}’s room</p>
            <h1 className="lobby-title">Join at the code below</h1>
            {view.lastRematch?.accepted && (
              <p className="rematch-outcome" role="status">
                Rematch accepted: {view.players.map((p) => p.name).join(', ')}
              </p>
            )}
            <p className="muted">
              {view.settings.questionCount} questions, {view.settings.secondsPerQuestion} s each
            </p>
            {byHost && (
              <p className="hint">
                You set the pace: Next moves the game on after each answer. A presenter’s clicker works too (Right arrow, Page Down or
                Space); its first press starts the game.
              </p>
            )}
          </section>
        )}
        {view.phase === 'question' && view.question && <QuestionStage question={view.question} view={view} paused={paused} />}
        {view.phase === 'reveal' && view.reveal && <RevealStage reveal={view.reveal} view={view} />}
        {view.phase === 'finished' && <FinishedStage view={view} paused={paused} />}
        {notice && (
          <p className="error" role="alert">
            {notice}
          </p>
        )}
        <div className="host-actions">
          {view.phase === 'lobby' && (
            <button type="button" className="big-button primary" onClick={() => void start()} disabled={busy || !canStart}>
              Start game
            </button>
          )}
          {byHost && (view.phase === 'question' || view.phase === 'reveal') && (
            <NextButton view={view} disabled={moving || paused} onNext={() => void next()} />
          )}
          <button type="button" className="big-button ghost" onClick={() => void close()} disabled={busy}>
            Close room
          </button>
        </div>
      </main>
      <aside className="host-side">
        <JoinPanel code={view.code} />
        <PlayersPanel players={view.players} maxPlayers={view.settings.maxPlayers} onKick={(player) => void kick(player)} />
      </aside>
    </div>
  )
}
