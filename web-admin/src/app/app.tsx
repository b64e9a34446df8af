import { deleteSession } from '../features/auth/api/delete-session'
import { CheckingSession, SignIn } from '../features/auth/components/sign-in'
import { StreamDownBanner, StreamStatusPill } from '../features/live/components/stream-status'
import { InstancesPage } from '../features/instances/components/instances-page'
import { OverviewPage } from '../features/overview/components/overview-page'
import { RoomDetailPage } from '../features/room-detail/components/room-detail-page'
import { RoomsPage } from '../features/rooms/components/rooms-page'
import { FinishedPage } from '../features/finished/components/finished-page'
import { FinishedGamePage } from '../features/finished/components/finished-game-page'
import { useLive } from '../lib/live-context'
import { LiveProvider } from '../lib/live-provider'
import { Link } from '../components/link'
import { usePath } from '../lib/router'
import { useSession } from '../lib/session'
import { shortSha } from '../lib/format'

/** Shows the token form when signed out. When signed in, it shows the console over one admin stream for that session. */
export function App() {
  const { status, epoch } = useSession()
  if (status === 'checking') return <CheckingSession />
  if (status === 'signed-out') return <SignIn />
  // The key changes with each sign-in, so a new session gets a new stream and forgets the old session's data.
  return (
    <LiveProvider key={epoch}>
      <Shell />
    </LiveProvider>
  )
}

function Shell() {
  const path = usePath()
  const route = matchRoute(path)
  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Trivia rooms <span className="brand-sub">operator console</span>
        </Link>
        <nav className="nav" aria-label="Views">
          <Link
            to="/"
            className={route.view === 'overview' ? 'active' : undefined}
            aria-current={route.view === 'overview' ? 'page' : undefined}
          >
            Overview
          </Link>
          <Link
            to="/rooms"
            className={route.view === 'rooms' || route.view === 'room' ? 'active' : undefined}
            aria-current={route.view === 'rooms' ? 'page' : undefined}
          >
            Rooms
          </Link>
          <Link
            to="/finished"
            className={route.view === 'finished' || route.view === 'finished-game' ? 'active' : undefined}
            aria-current={route.view === 'finished' ? 'page' : undefined}
          >
            Finished
          </Link>
          <Link
            to="/instances"
            className={route.view === 'instances' ? 'active' : undefined}
            aria-current={route.view === 'instances' ? 'page' : undefined}
          >
            Instances
          </Link>
        </nav>
        <div className="spacer" />
        <BuildTag />
        <StreamStatusPill />
        <button type="button" className="button ghost small" onClick={() => void deleteSession()}>
          Sign out
        </button>
      </header>
      <StreamDownBanner />
      <main className="content">
        {route.view === 'overview' && <OverviewPage />}
        {route.view === 'rooms' && <RoomsPage />}
        {route.view === 'instances' && <InstancesPage />}
        {route.view === 'room' && <RoomDetailPage key={route.code} code={route.code} />}
        {route.view === 'finished' && <FinishedPage />}
        {route.view === 'finished-game' && <FinishedGamePage key={route.id} id={route.id} />}
      </main>
    </div>
  )
}

function BuildTag() {
  const build = useLive((s) => s.overview?.build)
  if (!build) return null
  return (
    <span className="build-tag mono" title={`version ${build.version}, commit ${build.sha}`}>
      {build.version} · {shortSha(build.sha)}
    </span>
  )
}

type Route =
  | { readonly view: 'overview' }
  | { readonly view: 'rooms' }
  | { readonly view: 'instances' }
  | { readonly view: 'room'; readonly code: string }
  | { readonly view: 'finished' }
  | { readonly view: 'finished-game'; readonly id: string }

function matchRoute(path: string): Route {
  const parts = path.split('/').filter(Boolean)
  if (parts[0] === 'rooms' && parts.length === 2) return { view: 'room', code: decodeURIComponent(parts[1]).toUpperCase() }
  if (parts[0] === 'rooms' && parts.length === 1) return { view: 'rooms' }
  if (parts[0] === 'instances' && parts.length === 1) return { view: 'instances' }
  if (parts[0] === 'finished' && parts.length === 1) return { view: 'finished' }
  if (parts[0] === 'finished' && parts.length === 2) return { view: 'finished-game', id: decodeURIComponent(parts[1]) }
  return { view: 'overview' }
}
