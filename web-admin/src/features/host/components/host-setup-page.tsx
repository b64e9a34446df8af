import { useEffect, useState, type FormEvent } from 'react'
import { Link } from '../../../components/link'
import { allDeckTokens, deckToken } from '../../../lib/deck-tokens'
import { explain } from '../../../lib/game-api'
import { navigate } from '../../../lib/router'
import { seatKey } from '../../../lib/use-room'
import { createRoom } from '../api/create-room'
import { getDecks, type DeckSummary } from '../api/get-decks'

/** The page at `/host`, where a host picks a deck (or writes one) and the clock, and opens a room. */
export function HostSetupPage() {
  const [decks, setDecks] = useState<readonly DeckSummary[] | null>(null)
  const [hostName, setHostName] = useState('')
  const [deckId, setDeckId] = useState('')
  const [questionCount, setQuestionCount] = useState('10')
  const [seconds, setSeconds] = useState('20')
  const [reveal, setReveal] = useState('4')
  const [pace, setPace] = useState<'clock' | 'host'>('clock')
  const [order, setOrder] = useState<'shuffled' | 'deck'>('shuffled')
  const [lateJoin, setLateJoin] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    // These are the built-in decks and this browser's own. The server lists no other host's decks.
    getDecks(allDeckTokens()).then(
      (list) => {
        if (!live) return
        setDecks(list)
        // The deck editor links to `/host?deck=ID`, which picks that deck when it is listed.
        const wanted = new URLSearchParams(window.location.search).get('deck')?.toLowerCase()
        setDeckId((id) => id || (list.find((d) => d.id === wanted) ?? list.find((d) => d.builtin) ?? list[0])?.id || '')
      },
      (err) => live && setError(explain(err)),
    )
    return () => {
      live = false
    }
  }, [])

  const deck = decks?.find((d) => d.id === deckId)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const room = await createRoom({
        hostName: hostName.trim() || 'Host',
        deckId: deckId || undefined,
        questionCount: Number(questionCount),
        secondsPerQuestion: Number(seconds),
        revealSeconds: Number(reveal),
        pace,
        order,
        lateJoin,
      })
      window.sessionStorage.setItem(seatKey('host', room.code), room.hostToken)
      navigate(`/host/${room.code}`)
    } catch (err) {
      setError(explain(err))
      setBusy(false)
    }
  }

  return (
    <main className="people-page host-setup">
      <h1 className="title">Host a game</h1>
      <form className="card stack" onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span>Host name</span>
          <input
            className="input"
            value={hostName}
            onChange={(e) => setHostName(e.target.value)}
            maxLength={32}
            placeholder="Host"
            autoComplete="nickname"
          />
        </label>
        <label className="field">
          <span>Deck</span>
          <select className="input" value={deckId} onChange={(e) => setDeckId(e.target.value)} disabled={!decks}>
            {(decks ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.questions} questions{d.builtin ? ', built in' : ''})
              </option>
            ))}
          </select>
        </label>
        <p className="hint deck-links">
          <Link to="/host/decks/new">Write a deck</Link>
          {deck && !deck.builtin && deckToken(deck.id) && (
            <>
              {' · '}
              <Link to={`/host/decks/${deck.id}`}>Edit this deck</Link>
            </>
          )}
        </p>
        <div className="field-row">
          <label className="field">
            <span>Questions</span>
            <input
              className="input"
              type="number"
              min={1}
              max={Math.min(50, deck?.questions ?? 50)}
              step={1}
              value={questionCount}
              onChange={(e) => setQuestionCount(e.target.value)}
              required
            />
          </label>
          <label className="field">
            <span>Seconds per question</span>
            <input
              className="input"
              type="number"
              min={1}
              max={300}
              step="any"
              value={seconds}
              onChange={(e) => setSeconds(e.target.value)}
              required
            />
          </label>
          <label className="field">
            <span>Seconds of reveal</span>
            <input
              className="input"
              type="number"
              min={0}
              max={60}
              step="any"
              value={reveal}
              onChange={(e) => setReveal(e.target.value)}
              required
            />
          </label>
        </div>
        {/* Labels apart from their selects: a wrapping label's name would take in every option's text ("As in the deck"). */}
        <div className="field-row">
          <div className="field">
            <label htmlFor="room-pace">Pace</label>
            <select id="room-pace" className="input" value={pace} onChange={(e) => setPace(e.target.value === 'host' ? 'host' : 'clock')}>
              <option value="clock">The clock moves on</option>
              <option value="host">I press Next</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="room-order">Order</label>
            <select
              id="room-order"
              className="input"
              value={order}
              onChange={(e) => setOrder(e.target.value === 'deck' ? 'deck' : 'shuffled')}
            >
              <option value="shuffled">Shuffled</option>
              <option value="deck">As in the deck</option>
            </select>
          </div>
        </div>
        <label className="check-field">
          <input type="checkbox" checked={lateJoin} onChange={(e) => setLateJoin(e.target.checked)} />
          <span>Latecomers may join a game that has started (they play from the next question)</span>
        </label>
        <p className="hint">
          {pace === 'host'
            ? 'Each question still has its clock, and Next (or a presenter’s clicker: Right arrow, Page Down, Space) closes it early; after each answer the game waits for you.'
            : 'Each question closes when its time is up or everyone has answered, and the next one follows after the reveal.'}
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="big-button primary" disabled={busy || !decks}>
          Open room
        </button>
      </form>
    </main>
  )
}
