import { ApiError, adminRequest } from '../../../lib/api-client'

/** Whether this browser's session cookie is still a session, as the server sees it. */
export async function hasSession(): Promise<boolean> {
  try {
    await adminRequest('/session')
    return true
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false
    throw error
  }
}
