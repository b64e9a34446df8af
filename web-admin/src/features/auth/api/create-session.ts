import { useCallback, useState } from 'react'
import { ApiError, adminRequest, describeError } from '../../../lib/api-client'
import { session } from '../../../lib/session'

/**
 * Signs in by sending the admin token once, as Bearer, in exchange for the session cookie the
 * server sets (HttpOnly, 12 hours). Resolves true when the server took the token, and false when
 * it refused it.
 */
export async function createSession(token: string): Promise<boolean> {
  try {
    await adminRequest('/session', { method: 'POST', token })
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false
    throw error
  }
}

export interface SignInAttempt {
  readonly signIn: (token: string) => Promise<void>
  readonly pending: boolean
  readonly error: string | null
}

/** Sends the sign-in form's request. On success the console is signed in; otherwise the form shows the reason. */
export function useCreateSession(): SignInAttempt {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const signIn = useCallback(async (token: string) => {
    setPending(true)
    setError(null)
    try {
      if (await createSession(token)) session.signedIn()
      else setError('The server refused this token.')
    } catch (err) {
      setError(`Could not reach the server: ${describeError(err)}`)
    } finally {
      setPending(false)
    }
  }, [])
  return { signIn, pending, error }
}
