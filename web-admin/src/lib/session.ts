import { useSyncExternalStore } from 'react'

// This tracks whether the console is signed in. The proof is the session cookie that the server
// sets when the admin token is given once (POST /admin/api/session). The cookie is HttpOnly, so no
// script here can read it, and the browser sends it with every admin request and the stream. The
// console keeps no token: it learns its state from the server's answers (features/auth).

export type SessionStatus = 'checking' | 'signed-in' | 'signed-out'

export interface SessionState {
  readonly status: SessionStatus
  /** Why the console is signed out, shown on the sign-in form. */
  readonly notice: string | null
  /** Counts sign-ins, so that each one gets a fresh stream and forgets the last one's data. */
  readonly epoch: number
}

type Listener = () => void

export class Session {
  private state: SessionState = { status: 'checking', notice: null, epoch: 0 }
  private readonly listeners = new Set<Listener>()

  get status(): SessionStatus {
    return this.state.status
  }

  snapshot = (): SessionState => this.state

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  signedIn(): void {
    this.set({ status: 'signed-in', notice: null, epoch: this.state.epoch + 1 })
  }

  signedOut(notice: string | null = null): void {
    this.set({ status: 'signed-out', notice, epoch: this.state.epoch })
  }

  /** Called on any 401: the session expired, or the admin token was changed on the server. */
  refuse(): void {
    if (this.state.status === 'signed-in')
      this.signedOut('Your session has ended (it lasts 12 hours, and a new admin token ends it). Sign in again.')
  }

  private set(next: SessionState): void {
    this.state = next
    for (const listener of this.listeners) listener()
  }
}

/** The console's one session. */
export const session = new Session()

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.snapshot)
}
