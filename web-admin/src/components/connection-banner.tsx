import type { ConnectionStatus } from '@game-rooms/client'

/**
 * Says so while the socket is down (the client reconnects by itself, the page only tells), or
 * while the room's clocks hold because its database cannot record anything (the room resumes by
 * itself when it can).
 */
export function ConnectionBanner({ status, paused = false }: { readonly status: ConnectionStatus; readonly paused?: boolean }) {
  if (status.state === 'reconnecting') {
    return (
      <div className="connection-banner" role="status">
        Connection lost, reconnecting…
      </div>
    )
  }
  if (!paused) return null
  return (
    <div className="connection-banner" role="status">
      Reconnecting to storage… The clock is paused until the game can go on.
    </div>
  )
}
