import { useState, type FormEvent } from 'react'
import { session, useSession } from '../../../lib/session'
import { useCheckToken } from '../api/check-token'

/** Asks for the admin token once; the console remembers it in this browser. */
export function SignIn() {
  const { notice } = useSession()
  const { check, pending, error } = useCheckToken()
  const [token, setToken] = useState('')

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const value = token.trim()
    if (value && (await check(value))) session.signIn(value)
  }

  return (
    <main className="sign-in">
      <form className="sign-in-card" onSubmit={submit}>
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
          {pending ? 'Checking…' : 'Sign in'}
        </button>
        <p className="hint">
          Kept in this browser until you sign out. A link with <code>?token=…</code> signs in too.
        </p>
      </form>
    </main>
  )
}
