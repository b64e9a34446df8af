import { useState } from 'react'
import { ConnectionBanner } from '../../../components/connection-banner'
import { Link } from '../../../components/link'
import { StandingsList } from '../../../components/standings-list'
import type { AnswerValue } from '../../../lib/question-kinds'
import { withMyAnswer, withMyVote } from '../../../lib/room-view'
import { seatKey, useRoom } from '../../../lib/use-room'
import { useLateArrival } from '../hooks/use-late-arrival'
import { AnswerPad, type Pick } from './answer-pad'
import { JoinForm } from './join-form'
import { PlayerResult } from './player-result'

/** The page at `/play/{code}`: a player's phone, from entering a name to the rematch vote. */
export function PlayPage({ code }: { readonly code: string }) {
  const key = seatKey('player', code)
  const [joined, setJoined] = useState(() => window.sessionStorage.getItem(key) !== null)
  // True when the player joined on this page rather than resumed a seat. The first room.state then
  // says whether a game was running.
  const [joinedNow, setJoinedNow] = useState(false)
  const { view, status, paused, send, update } = useRoom(joined ? key : null)
  const notYet = useLateArrival(key, view, joinedNow)
  const [pick, setPick] = useState<Pick | undefined>(undefined)
  const [voting, setVoting] = useState(false)
  // Whether this player said no to a rematch. If so, a 4003 is the goodbye, not a kick.
  const [saidNo, setSaidNo] = useState(false)

  if (!joined) {
    return (
      <main className="people-page play">
        <h1 className="title">Join the game</h1>
        <JoinForm
          code={code}
          onJoined={(seat) => {
            window.sessionStorage.setItem(key, seat.playerToken)
            setJoined(true)
            setJoinedNow(true)
          }}
        />
      </main>
    )
  }

  if (status.state === 'ended' || view?.phase === 'closed') {
    return (
      <main className="people-page play">
        <div className="card stack" role="status">
          <h1 className="title">{farewell(status.closeCode, view?.phase === 'closed', saidNo)}</h1>
          <Link to="/" className="big-button">
            Join another room
          </Link>
        </div>
      </main>
    )
  }
  if (!view) {
    return (
      <main className="people-page play">
        <ConnectionBanner status={status} />
        <p className="muted center">Connecting…</p>
      </main>
    )
  }

  const me = view.players.find((p) => p.id === view.playerId)
  const answer = async (value: AnswerValue) => {
    const question = view.question?.index
    if (question === undefined) return
    setPick({ question, answer: value, state: 'sending' })
    try {
      const reply = await send('room.answer', { question, ...value })
      if (reply.status === 200) {
        update((v) => withMyAnswer(v, question, value))
        setPick({ question, answer: value, state: 'in' })
      } else {
        setPick({ question, answer: value, state: 'refused', message: refusal(reply.error?.code, reply.error?.message) })
      }
    } catch {
      setPick(undefined)
    }
  }
  const vote = async (yes: boolean) => {
    setVoting(true)
    setSaidNo(!yes)
    try {
      const reply = await send('room.rematch', { vote: yes })
      if (reply.status === 200) update((v) => withMyVote(v, yes))
    } catch {
      // The session ended in the meantime, and the page shows why.
    } finally {
      setVoting(false)
    }
  }
  const revealed = view.reveal?.index
  const answered: AnswerValue | undefined =
    view.myAnswer?.question === revealed ? view.myAnswer : pick?.question === revealed && pick?.state === 'in' ? pick.answer : undefined

  return (
    <div className="play-screen">
      <ConnectionBanner status={status} paused={paused} />
      <header className="play-header">
        <span className="mono">{view.code}</span>
        <span className="play-me">
          {me?.name} · <strong>{me?.score ?? 0}</strong>
        </span>
      </header>
      <main className="play-main">
        {view.phase === 'lobby' && (
          <section className="card stack center" aria-label="Lobby">
            <h1 className="title">You’re in, {me?.name}!</h1>
            <p>{view.lastRematch?.accepted ? 'Rematch on. ' : ''}Waiting for the host to start the game.</p>
            <p className="muted">{view.players.length} in the room</p>
          </section>
        )}
        {notYet && (
          <section className="card stack center" aria-label="Joined during the game">
            <h1 className="title">You’re in, {me?.name}!</h1>
            <p role="status">The game has started: you play from the next question.</p>
          </section>
        )}
        {!notYet && view.phase === 'question' && view.question && (
          <AnswerPad
            question={view.question}
            view={view}
            pick={pick}
            offline={status.state !== 'open'}
            paused={paused}
            onAnswer={(value) => void answer(value)}
          />
        )}
        {!notYet && view.phase === 'reveal' && view.reveal && <PlayerResult reveal={view.reveal} view={view} answered={answered} />}
        {view.phase === 'finished' && (
          <section className="stack" aria-label="Game over">
            {view.reveal && view.reveal.scores.some((s) => s.playerId === view.playerId) && (
              <PlayerResult reveal={view.reveal} view={view} answered={answered} />
            )}
            <h2>Standings</h2>
            <StandingsList standings={view.standings ?? []} playerId={view.playerId} />
            <RematchVote view={view} voting={voting} onVote={(yes) => void vote(yes)} />
          </section>
        )}
      </main>
    </div>
  )
}

function RematchVote({
  view,
  voting,
  onVote,
}: {
  readonly view: ReturnType<typeof useRoom>['view'] & object
  readonly voting: boolean
  readonly onVote: (yes: boolean) => void
}) {
  const rematch = view.rematch
  if (!rematch) return null
  if (rematch.decided) {
    const inIt = rematch.decided.accepted && view.playerId !== undefined && rematch.decided.playerIds.includes(view.playerId)
    return (
      <p className="rematch-outcome" role="status">
        {inIt ? 'Rematch on!' : 'No rematch this time. Thanks for playing!'}
      </p>
    )
  }
  if (rematch.myVote !== undefined) {
    return (
      <p className="rematch-outcome" role="status">
        {rematch.myVote ? 'You want a rematch. Waiting for the others…' : 'You are out of the rematch.'}
      </p>
    )
  }
  return (
    <div className="rematch-vote">
      <p>Another game?</p>
      <div className="vote-buttons">
        <button type="button" className="big-button primary" disabled={voting} onClick={() => onVote(true)}>
          Play again
        </button>
        <button type="button" className="big-button" disabled={voting} onClick={() => onVote(false)}>
          Leave
        </button>
      </div>
    </div>
  )
}

function farewell(closeCode: number | undefined, roomClosed: boolean, saidNo: boolean): string {
  if (roomClosed || closeCode === 4004) return 'The room is closed. Thanks for playing!'
  if (closeCode === 4003) return saidNo ? 'Thanks for playing!' : 'The host removed you from the room.'
  if (closeCode === 4001) return 'Your seat has expired. Join again from the start page.'
  // A newer socket of the same seat pushed this one out. Reloading this page takes the seat back.
  if (closeCode === 4010) return 'Your seat was opened on another screen. Reload this page to play here again.'
  return 'Disconnected.'
}

function refusal(code: string | undefined, message: string | undefined): string {
  if (code === 'question_closed') return 'Too late: time was up.'
  if (code === 'already_answered') return 'Your first answer counts.'
  if (code === 'not_in_game') return 'You joined during this question: you play from the next one.'
  return message ?? 'The answer was not taken.'
}
