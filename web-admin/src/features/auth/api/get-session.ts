import { ApiError, adminRequest } from '../../../lib/api-client'

/** Asks the server whether this browser's session cookie still holds a session. */
export async function hasSession(): Promise<boolean> {
  try {
    await adminRequest('/session')
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false
    throw error
  }
}
