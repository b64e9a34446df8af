import { lazy, Suspense } from 'react'
import { HomePage } from '../features/home/components/home-page'
import { PlayPage } from '../features/play/components/play-page'
import { TablePage } from '../features/table/components/table-page'
import { usePath } from '../lib/router'
import { normalizeCode } from '../lib/room-code'

// The host screen and its QR library are a separate chunk, so a phone joining a game never loads them.
const HostSetupPage = lazy(() => import('../features/host/components/host-setup-page').then((m) => ({ default: m.HostSetupPage })))
const HostRoomPage = lazy(() => import('../features/host/components/host-room-page').then((m) => ({ default: m.HostRoomPage })))
const DeckEditorPage = lazy(() => import('../features/decks/components/deck-editor-page').then((m) => ({ default: m.DeckEditorPage })))
const ResultsPage = lazy(() => import('../features/results/components/results-page').then((m) => ({ default: m.ResultsPage })))

/**
 * Routes the pages for people: `/`, `/host`, `/host/{code}` (a room this tab opened),
 * `/host/decks/{id|new}` (the deck editor), `/play/{code}`, `/table/{code}` (a card table), and
 * `/results/{id}` (a finished game's results).
 */
export function PagesApp() {
  const path = usePath()
  const [first, second, third] = path.split('/').filter(Boolean)
  // `/host/decks/new` and `/host/decks/{id}` open the deck editor. They never name a room, because room
  // codes have 6 characters.
  if (first === 'host' && second === 'decks') {
    const id = third && third !== 'new' ? decodeURIComponent(third) : undefined
    return (
      <Suspense fallback={<p className="muted center">Loading…</p>}>
        <DeckEditorPage id={id} />
      </Suspense>
    )
  }
  // The key is the results' id, so other results load afresh with nothing carried over.
  if (first === 'results' && second) {
    const id = decodedOr(second)
    return (
      <Suspense fallback={<p className="muted center">Loading…</p>}>
        <ResultsPage key={id} id={id} />
      </Suspense>
    )
  }
  const code = second ? normalizeCode(decodeURIComponent(second)) : undefined
  // The key is the room's code, so another room gets its own connection with nothing carried over.
  if (first === 'play' && code) return <PlayPage key={code} code={code} />
  if (first === 'table' && code) return <TablePage key={code} code={code} />
  if (first === 'host') {
    return (
      <Suspense fallback={<p className="muted center">Loading…</p>}>
        {code ? <HostRoomPage key={code} code={code} /> : <HostSetupPage />}
      </Suspense>
    )
  }
  return <HomePage />
}

/** Decodes a path segment. A segment that is not valid percent-encoding is returned as it is, and the server then answers 404. */
function decodedOr(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
