import { adminRequest, describeError } from '../../../lib/api-client'
import { session } from '../../../lib/session'

/** Signs out: the server clears the session cookie. The console signs out here whatever the server answers. */
export async function deleteSession(): Promise<void> {
  try {
    await adminRequest('/session', { method: 'DELETE' })
    session.signedOut()
  } catch (error) {
    // The cookie may still be in this browser; it lapses by itself at its expiry.
    session.signedOut(`Could not reach the server to end the session (${describeError(error)}); it ends by itself within 12 hours.`)
  }
}
