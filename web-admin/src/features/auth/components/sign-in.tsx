import { useState, type FormEvent } from 'react'
import { useSession } from '../../../lib/session'
import { useCreateSession } from '../api/create-session'

/** Shows a moment with nothing to act on, while the console asks the server whether this browser is signed in. */
export function CheckingSession() {
  return (
    <main className="sign-in">
      <p className="hint" role="status">
        Signing in…
      </p>
    </main>
  )
}

/** Asks for the admin token and trades it for a session; the token itself is not kept. */
export function SignIn() {
  const { notice } = useSession()
  const { signIn, pending, error } = useCreateSession()
  const [token, setToken] = useState('')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = token.trim()
    if (value) await signIn(value)
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={(e) => void submit(e)}>
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          Trivia rooms <span className="brand-sub">operator console</span>
        </div>
        <label htmlFor="admin-token">Admin token</label>
        <input
          id="admin-token"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder="ADMIN_TOKEN, or the one in the start-up log"
        />
        {(error ?? notice) && (
          <p className="form-error" role="alert">
            {error ?? notice}
          </p>
        )}
        <button type="submit" className="button primary" disabled={pending || !token.trim()}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="hint">
          Signed in for 12 hours in this browser, or until you sign out; the token itself is not kept. A link with <code>?token=…</code>{' '}
          signs in too.
        </p>
      </form>
    </main>
  )
}
