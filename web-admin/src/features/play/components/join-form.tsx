import { useState, type FormEvent } from 'react'
import { explain } from '../../../lib/game-api'
import { joinRoom, type Seat } from '../api/join-room'

/** Asks for a name, and on "Join" takes a seat over HTTP and hands the seat's token to the page. */
export function JoinForm({ code, onJoined }: { readonly code: string; readonly onJoined: (seat: Seat) => void }) {
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!name.trim()) return setError('Type the name the others will see.')
    setBusy(true)
    setError(null)
    try {
      onJoined(await joinRoom(code, name.trim()))
    } catch (err) {
      setError(explain(err))
      setBusy(false)
    }
  }

  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} noValidate>
      <p className="muted">
        Room <strong className="mono">{code}</strong>
      </p>
      <label className="field">
        <span>Your name</span>
        <input
          className="input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={32}
          autoComplete="nickname"
          enterKeyHint="go"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'join-error' : undefined}
        />
      </label>
      {error && (
        <p id="join-error" className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="big-button primary" disabled={busy}>
        Join
      </button>
    </form>
  )
}
