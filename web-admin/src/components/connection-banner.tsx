import type { ConnectionStatus } from '@game-rooms/client'

/**
 * Tells the player while the socket is down. The client reconnects by itself; the page only tells.
 * It also tells while the room's clocks hold because the room's database cannot record anything.
 * The room resumes by itself when it can.
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
