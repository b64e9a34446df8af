import { useState, type FormEvent } from 'react'
import { explain } from '../../../lib/game-api'
import { isRoomCode, normalizeCode } from '../../../lib/room-code'
import { navigate } from '../../../lib/router'
import { getRoomSummary } from '../api/get-room-summary'
import { PracticeForm } from '../../table/components/practice-form'

/** The page at `/`, where a person joins a room by its code, hosts one, or sits at a card practice table. */
export function HomePage() {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [checking, setChecking] = useState(false)

  const join = async (event: FormEvent) => {
    event.preventDefault()
    const wanted = normalizeCode(code)
    if (!isRoomCode(wanted)) return setError('A room code is 6 letters and digits, as shown on the host screen.')
    setChecking(true)
    setError(null)
    try {
      await getRoomSummary(wanted)
      navigate(`/play/${wanted}`)
    } catch (err) {
      setError(explain(err))
    } finally {
      setChecking(false)
    }
  }

  return (
    <main className="people-page home">
      <h1 className="title">Trivia rooms</h1>
      <form className="card stack" onSubmit={(e) => void join(e)} noValidate>
        <label className="field">
          <span>Room code</span>
          <input
            className="input code-input"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoCapitalize="characters"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            inputMode="text"
            maxLength={8}
            placeholder="K7QMPD"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'code-error' : undefined}
          />
        </label>
        {error && (
          <p id="code-error" className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="big-button primary" disabled={checking}>
          Join
        </button>
      </form>
      <div className="card stack">
        <p className="muted">Running a game for a group? Put the host screen on a projector or a shared screen.</p>
        <button type="button" className="big-button" onClick={() => navigate('/host')}>
          Host a game
        </button>
      </div>
      <PracticeForm />
    </main>
  )
}
