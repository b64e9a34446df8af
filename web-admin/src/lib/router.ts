import { useSyncExternalStore } from 'react'

// Three views do not need a router library. This uses paths under the base, pushState, and
// popstate. The game server answers every /admin/* path with index.html, so deep links and
// reloads work.

const BASE = import.meta.env.BASE_URL.replace(/\/$/, '')
const listeners = new Set<() => void>()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  window.addEventListener('popstate', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('popstate', listener)
  }
}

/** The path inside the console: "/", "/rooms", "/rooms/K7QMPD". */
export function currentPath(): string {
  const path = window.location.pathname
  const inside = path.startsWith(BASE) ? path.slice(BASE.length) : path
  return inside === '' ? '/' : inside
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath)
}

export function hrefFor(path: string): string {
  return BASE + path
}

export function navigate(path: string): void {
  if (path === currentPath()) return
  window.history.pushState(null, '', hrefFor(path))
  window.scrollTo?.(0, 0)
  for (const listener of listeners) listener()
}
