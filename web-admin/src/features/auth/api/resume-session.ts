import { describeError } from '../../../lib/api-client'
import { session } from '../../../lib/session'
import { createSession } from './create-session'
import { hasSession } from './get-session'

// Consoles from before the session cookie kept the token under this key. The console reads it once,
// trades it for a session, and forgets it.
const LEGACY_STORAGE_KEY = 'trivia-admin-token'

/**
 * Settles the session before the console shows anything. When the console opens from a
 * `/admin/?token=...` link (PROTOCOL.md section 4), the token is taken out of the address bar at
 * once, before any request, so that it is not in history or a copied link. The token is then traded
 * for a session. A token that an older console left in localStorage is traded the same way and
 * then deleted. Without either, the server says whether this browser's cookie still holds a
 * session.
 */
export async function resumeSession(location: Location, history: History, storage: Storage | null): Promise<void> {
  const linked = takeTokenFromUrl(location, history)
  const kept = takeStoredToken(storage)
  try {
    if (linked !== null) {
      if (await createSession(linked)) return session.signedIn()
      return session.signedOut('The server refused the admin token in that link. Enter the current one.')
    }
    if (kept !== null && (await createSession(kept))) return session.signedIn()
    if (await hasSession()) session.signedIn()
    else session.signedOut()
  } catch (error) {
    session.signedOut(`Could not reach the server: ${describeError(error)}`)
  }
}

function takeTokenFromUrl(location: Location, history: History): string | null {
  const url = new URL(location.href)
  const token = url.searchParams.get('token')
  if (token === null) return null
  url.searchParams.delete('token')
  history.replaceState(history.state, '', url.pathname + url.search + url.hash)
  return token.trim() || null
}

function takeStoredToken(storage: Storage | null): string | null {
  try {
    const token = storage?.getItem(LEGACY_STORAGE_KEY) ?? null
    storage?.removeItem(LEGACY_STORAGE_KEY)
    return token?.trim() || null
  } catch {
    // The storage refused access (as in a private window), so nothing was kept there.
    return null
  }
}
