import { describeError } from '../../../lib/api-client'
import { session } from '../../../lib/session'
import { createSession } from './create-session'
import { hasSession } from './get-session'

// Where consoles before the session cookie kept the token: read once, traded, and forgotten.
const LEGACY_STORAGE_KEY = 'trivia-admin-token'

/**
 * Settles the session before the console shows anything. A `/admin/?token=...` link (PROTOCOL.md
 * section 4) has the token taken out of the address bar at once, before any request, so it is
 * not in history or a copied link, and is traded for a session; so is a token an older console
 * left in localStorage, which is then deleted. Otherwise the server says whether this browser's
 * cookie is a session still.
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
    // Storage refused (a private window): nothing was kept there.
    return null
  }
}
