import { lazy, Suspense } from 'react'
import { HomePage } from '../features/home/components/home-page'
import { PlayPage } from '../features/play/components/play-page'
import { TablePage } from '../features/table/components/table-page'
import { usePath } from '../lib/router'
import { normalizeCode } from '../lib/room-code'

// The host screen (and its QR library) is a separate chunk: a phone joining a game never loads it.
const HostSetupPage = lazy(() => import('../features/host/components/host-setup-page').then((m) => ({ default: m.HostSetupPage })))
const HostRoomPage = lazy(() => import('../features/host/components/host-room-page').then((m) => ({ default: m.HostRoomPage })))

/** The pages for people: `/`, `/host`, `/host/{code}` (a room this tab opened), `/play/{code}`, `/table/{code}` (a card table). */
export function PagesApp() {
  const path = usePath()
  const [first, second] = path.split('/').filter(Boolean)
  const code = second ? normalizeCode(decodeURIComponent(second)) : undefined
  // Keyed by code: another room is another connection with nothing carried over.
  if (first === 'play' && code) return <PlayPage key={code} code={code} />
  if (first === 'table' && code) return <TablePage key={code} code={code} />
  if (first === 'host') {
    return <Suspense fallback={<p className="muted center">Loading…</p>}>{code ? <HostRoomPage key={code} code={code} /> : <HostSetupPage />}</Suspense>
  }
  return <HomePage />
}
