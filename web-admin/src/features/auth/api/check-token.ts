import { useCallback, useState } from 'react'
import { ApiError, adminRequest, describeError } from '../../../lib/api-client'

/** Whether the server accepts `token`, asked with the cheapest admin request. */
export async function checkToken(token: string): Promise<boolean> {
  try {
    await adminRequest('/overview', { token })
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false
    throw error
  }
}

export interface TokenCheck {
  readonly check: (token: string) => Promise<boolean>
  readonly pending: boolean
  readonly error: string | null
}

export function useCheckToken(): TokenCheck {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const check = useCallback(async (token: string) => {
    setPending(true)
    setError(null)
    try {
      const ok = await checkToken(token)
      if (!ok) setError('The server refused this token.')
      return ok
    } catch (err) {
      setError(`Could not reach the server: ${describeError(err)}`)
      return false
    } finally {
      setPending(false)
    }
  }, [])
  return { check, pending, error }
}
