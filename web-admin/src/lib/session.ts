import { useSyncExternalStore } from 'react'

// The admin token, asked for once and remembered in localStorage. `/admin/?token=...` signs in
// too; the token is then taken out of the address bar so it does not sit in history or get
// copied into a chat along with a link.

const STORAGE_KEY = 'trivia-admin-token'

export interface SessionState {
  readonly token: string | null
  /** Why the last token was dropped, shown on the sign-in form. */
  readonly notice: string | null
}

type Listener = () => void

export class Session {
  private state: SessionState
  private readonly listeners = new Set<Listener>()
  private readonly storage: Storage | null

  constructor(storage: Storage | null) {
    this.storage = storage
    this.state = { token: readToken(storage), notice: null }
  }

  get token(): string | null {
    return this.state.token
  }

  snapshot = (): SessionState => this.state

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  signIn(token: string): void {
    const trimmed = token.trim()
    if (!trimmed) return
    try {
      this.storage?.setItem(STORAGE_KEY, trimmed)
    } catch {
      // Private windows may refuse storage; the token then lasts for this tab only.
    }
    this.set({ token: trimmed, notice: null })
  }

  signOut(notice: string | null = null): void {
    try {
      this.storage?.removeItem(STORAGE_KEY)
    } catch {
      // Nothing stored, nothing to forget.
    }
    this.set({ token: null, notice })
  }

  /** Called on any 401: the stored token is wrong or was rotated on the server. */
  refuse(): void {
    if (this.state.token) this.signOut('The server refused this admin token. Enter the current one.')
  }

  /** Signs in with `?token=` when present and removes it from the address bar. */
  adoptTokenFromUrl(location: Location, history: History): void {
    const url = new URL(location.href)
    const token = url.searchParams.get('token')
    if (token === null) return
    url.searchParams.delete('token')
    history.replaceState(history.state, '', url.pathname + url.search + url.hash)
    this.signIn(token)
  }

  private set(next: SessionState): void {
    this.state = next
    for (const listener of this.listeners) listener()
  }
}

function readToken(storage: Storage | null): string | null {
  try {
    return storage?.getItem(STORAGE_KEY) || null
  } catch {
    return null
  }
}

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** The console's one session. */
export const session = new Session(browserStorage())

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.snapshot)
}
